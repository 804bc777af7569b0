import { test } from 'vitest';
import { connect } from 'node:net';
import { startHttpServer } from '../src/runner/http-server.js';
import { createLogger } from '../src/logging/logger.js';
import { echoFactory, initializeBody, rawRequestText } from './http-helpers.js';
test('probe', async () => {
  const http = await startHttpServer({ factory: echoFactory(), log: createLogger({ level: 'debug' }) });
  for (const v of [undefined, '2025-06-18']) {
  const socket = connect(http.port, '127.0.0.1');
  socket.on('data', (c) => console.log(v, JSON.stringify(c.toString())));
  socket.write(rawRequestText(http.port, { body: initializeBody(), headers: v ? { 'mcp-protocol-version': v } : {} }));
  await new Promise((r) => setTimeout(r, 1000));
  socket.destroy();
  }
  await http.close();
});
