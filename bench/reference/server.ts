/**
 * The bench's reference server (decision 032): the bare page of bench/reference served by the same Fastify adapter
 * the product uses (@mcansh/remix-fastify), with nothing else: no helmet, compression, logging, sessions or proxy.
 * Listens on HOST:PORT; `npm run bench` builds build/bench-reference first and starts this as a child.
 */
import path from 'node:path';
import Fastify from 'fastify';
import { reactRouterFastify } from '@mcansh/remix-fastify/react-router';
import { benchNumber, benchSetting } from '../support/environment.ts';

const app = Fastify();
await app.register(reactRouterFastify, {
  buildDirectory: path.resolve(import.meta.dirname, '../../build/bench-reference'),
  mode: 'production',
});
await app.listen({ host: benchSetting('HOST') ?? '127.0.0.1', port: benchNumber('PORT', 0) });
