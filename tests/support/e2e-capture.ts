/**
 * The local sites web-capture e2e tests capture (decision 037): served by the spec itself on ports derived from its
 * server's, which playwright.config.ts allow-lists for that server's captures (CAPTURE_TEST_ALLOW; with it the
 * server's captures also accept the HTTPS site's self-signed certificate).
 */

/** The port of the capture test site of the e2e server on `port`. */
export function captureSitePort(port: number): number {
  return port + 20;
}

/** The port of its self-signed HTTPS twin (allow-listed likewise). */
export function captureTlsSitePort(port: number): number {
  return port + 30;
}
