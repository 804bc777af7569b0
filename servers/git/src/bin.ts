#!/usr/bin/env node
// The bin: hands the command line to core's runner, which serves stdio or HTTP and shuts down
// cleanly. What the command line is lives in cli.ts.
import { runServer } from '@mcpkit/core/runner';
import { cli } from './cli.js';

await runServer(cli);
