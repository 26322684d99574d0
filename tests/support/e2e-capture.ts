/**
 * The local site web-capture e2e tests capture (issue 15): served by the spec itself on a port derived from its
 * server's, which playwright.config.ts allow-lists for that server's captures (CAPTURE_TEST_ALLOW).
 */

/** The port of the capture test site of the e2e server on `port`. */
export function captureSitePort(port: number): number {
  return port + 20;
}
