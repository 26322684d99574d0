/**
 * The upload rows' reference (decision 032): a plain node:http server on HOST:PORT that reads every request
 * body to its end, discards it, and answers `200 {}` — what the same client reaches when nothing but the transport
 * (loopback TCP, HTTP framing, one Node.js thread reading) stands in the way. `npm run bench` starts it as a child.
 */
import http from 'node:http';
import { benchNumber, benchSetting } from '../support/environment.ts';

const server = http.createServer((req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
});
server.listen(benchNumber('PORT', 0), benchSetting('HOST') ?? '127.0.0.1');
