import { describe, expect, it } from 'vitest';
import type { ServerBuild } from 'react-router';
import { stripBasePath, withBasePath } from './base-path.ts';
import { loadGatewayConfig } from '../config/server.ts';

describe('stripBasePath', () => {
  it('removes the prefix of URLs under it and leaves every other URL alone', () => {
    expect(stripBasePath('/cunzheng/login?x=1', '/cunzheng')).toBe('/login?x=1');
    expect(stripBasePath('/cunzheng/', '/cunzheng')).toBe('/');
    expect(stripBasePath('/cunzheng', '/cunzheng')).toBe('/');
    expect(stripBasePath('/cunzheng?x=1', '/cunzheng')).toBe('/?x=1');
    expect(stripBasePath('/cunzhengx/login', '/cunzheng')).toBe('/cunzhengx/login');
    expect(stripBasePath('/login', '/cunzheng')).toBe('/login');
    expect(stripBasePath('/login', '')).toBe('/login');
  });
});

describe('BASE_PATH', () => {
  const env = (BASE_PATH?: string) => ({ SESSION_SECRET: 'x'.repeat(32), BASE_PATH });
  it('is normalised to a leading slash and no trailing one, the root being empty', () => {
    expect(loadGatewayConfig(env('/cunzheng/')).basePath).toBe('/cunzheng');
    expect(loadGatewayConfig(env('cunzheng')).basePath).toBe('/cunzheng');
    expect(loadGatewayConfig(env('/apps/cunzheng-1.0/')).basePath).toBe('/apps/cunzheng-1.0');
    expect(loadGatewayConfig(env('/')).basePath).toBe('');
    expect(loadGatewayConfig(env(undefined)).basePath).toBe('');
  });
  it('refuses paths that would need escaping or climb out', () => {
    for (const bad of ['/a b/', '/存证/', '/a/../b', '/./a', '/a?x', '/a#b']) {
      expect(() => loadGatewayConfig(env(bad)), bad).toThrow(/BASE_PATH must be a path/);
    }
  });
});

describe('withBasePath', () => {
  const seen: string[] = [];
  const loader = async ({ request }: { request: Request }) => {
    seen.push(request.url);
    return null;
  };
  const build = {
    basename: '/',
    publicPath: '/',
    entry: { module: {} },
    routes: { root: { id: 'root', path: '', module: { loader, default: () => null } } },
    assets: {
      url: '/assets/manifest-1.js',
      version: '1',
      entry: { module: '/assets/entry.js', imports: ['/assets/chunk.js'] },
      routes: {
        root: { id: 'root', module: '/assets/root.js', imports: ['/assets/a.js'], css: ['/assets/root.css'] },
      },
    },
  } as unknown as ServerBuild;

  it('sets the basename, prefixes the manifest and gives loaders the request at the root', async () => {
    const served = withBasePath(build, '/cunzheng');
    expect(served.basename).toBe('/cunzheng');
    expect(served.assets.url).toBe('/cunzheng/assets/manifest-1.js');
    expect(served.assets.entry).toEqual({
      module: '/cunzheng/assets/entry.js',
      imports: ['/cunzheng/assets/chunk.js'],
    });
    expect(served.assets.routes.root).toMatchObject({
      module: '/cunzheng/assets/root.js',
      imports: ['/cunzheng/assets/a.js'],
      css: ['/cunzheng/assets/root.css'],
    });
    const request = new Request('http://h.test/cunzheng/attestation-list?page=2');
    await served.routes.root!.module.loader!({ request, params: {}, context: {} } as never);
    expect(seen).toEqual(['http://h.test/attestation-list?page=2']);
    // the original build is untouched
    expect(build.assets.entry.module).toBe('/assets/entry.js');
    expect(withBasePath(build, '')).toBe(build);
  });

  it('hands an action the body of its request', async () => {
    let body = '';
    const action = async ({ request }: { request: Request }) => {
      body = await request.text();
      return new URL(request.url).pathname;
    };
    const withAction = { ...build, routes: { r: { id: 'r', path: 'x', module: { action } } } } as never;
    const served = withBasePath(withAction, '/cunzheng');
    const request = new Request('http://h.test/cunzheng/x', { method: 'POST', body: 'a=1' });
    const result = await served.routes.r!.module.action!({ request, params: {}, context: {} } as never);
    expect(result).toBe('/x');
    expect(body).toBe('a=1');
  });
});
