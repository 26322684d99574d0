/**
 * Compression of the UI scope's answers (@fastify/compress and its options) and the `onSend` hooks that must run
 * around it: the guard of answers it would take as already compressed (server/pages/compression-guard.ts), the
 * trimming of hashed assets' headers (server/pages/asset-headers.ts), and whole pages with a Content-Length
 * (server/pages/page-answer.ts). `/api/*` and the PDF and package routes are outside this scope, never compressed
 * again.
 */
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { trimAssetHeaders } from './asset-headers.ts';
import { guardCompressionSniff } from './compression-guard.ts';
import { appendPageBuffering } from './page-answer.ts';

/** Registers compression on the scope `web` and its hooks, in the order they must run. */
export async function registerCompression(web: FastifyInstance): Promise<void> {
  // Answers are compressed; request bodies are not decompressed (no browser sends an encoded form, and an
  // encoded body would slip past FORM_BODY_LIMIT_BYTES' count of wire bytes): no preParsing hook per request.
  await web.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    encodings: ['br', 'gzip', 'deflate'],
  });
  // before the plugin's own onSend: answers whose first bytes it would take as already compressed
  web.addHook('onSend', guardCompressionSniff);
  web.addHook('onSend', trimAssetHeaders);
  web.addHook('onRoute', appendPageBuffering); // after compression's own route hook: the bytes that go out
}
