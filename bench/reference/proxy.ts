/**
 * The `/api` row's reference (decision 032, "Where the goals stop"): a bare Fastify with `@fastify/http-proxy` forwarding
 * `/api/*` to UPSTREAM_URL (the same platform process the product's gateway forwards to), with the plugin's
 * defaults and nothing else: no headers of its own, rate limit, request ids, logging, metrics or traces. Listens on
 * HOST:PORT; `npm run bench` starts it as a child and compares the CPU each spends per proxied call.
 */
import Fastify from 'fastify';
import httpProxy from '@fastify/http-proxy';
import { benchNumber, benchSetting } from '../support/environment.ts';

const upstream = benchSetting('UPSTREAM_URL');
if (!upstream) throw new Error('UPSTREAM_URL is required');
const app = Fastify();
await app.register(httpProxy, { upstream, prefix: '/api', rewritePrefix: '/api' });
app.get('/', async () => ({ ok: true }));
await app.listen({ host: benchSetting('HOST') ?? '127.0.0.1', port: benchNumber('PORT', 0) });
