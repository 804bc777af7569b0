#!/usr/bin/env node
// The bin: hands the command line to core's runner, which serves stdio or HTTP and shuts down
// cleanly. What the command line is, and what a bundle asks its user, lives in cli.ts; everything
// the server is lives in server.ts.
import { runServer } from '@mcpkit/core/runner';
import { cli } from './cli.js';

await runServer(cli);
