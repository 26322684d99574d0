/**
 * Which network addresses a capture may reach (decision 037, SSRF safety): only globally routable unicast —
 * every address a host resolves to is checked, and one that is loopback, private (RFC 1918, IPv6 unique local),
 * link-local (169.254.0.0/16 holds the cloud metadata services), carrier-grade NAT (100.64.0.0/10 holds Alibaba
 * Cloud's 100.100.100.200), multicast, broadcast, unspecified, reserved or documentation space, or an IPv6 form that
 * embeds an IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo) refuses the whole host. Ranges are ipaddr.js's
 * (the IANA special-purpose registries, RFC 6890); only its `unicast` range passes.
 *
 * Tests reach local test sites through an allow-list of exact `address:port` pairs (CAPTURE_TEST_ALLOW), which a
 * production start refuses (server/capture/config.ts).
 */
import ipaddr from 'ipaddr.js';

/** The Chinese words for the range an address is refused for. */
const RANGE_WORDS: Record<string, string> = {
  loopback: '本机回环地址',
  private: '内网地址',
  uniqueLocal: '内网地址',
  linkLocal: '链路本地地址（含云服务器元数据地址）',
  carrierGradeNat: '运营商级 NAT 地址（含云服务器元数据地址）',
  multicast: '组播地址',
  broadcast: '广播地址',
  unspecified: '未指定地址',
  ipv4Mapped: '嵌入 IPv4 的 IPv6 地址',
  rfc6052: '嵌入 IPv4 的 IPv6 地址',
  rfc6145: '嵌入 IPv4 的 IPv6 地址',
  '6to4': '嵌入 IPv4 的 IPv6 地址',
  teredo: '嵌入 IPv4 的 IPv6 地址',
};

/**
 * The kind of non-public address `address` is (an IPv4 or IPv6 literal, no brackets), in Chinese.
 * @returns null when the address is public unicast (a capture may connect to it)
 */
export function refusedRange(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/%.*$/, ''));
  } catch {
    return '无效地址';
  }
  const range = parsed.range();
  return range === 'unicast' ? null : (RANGE_WORDS[range] ?? '保留地址');
}

/**
 * Why a capture must not connect to `address`, for the user and the job's log.
 * @param host the name it was resolved from, when it was
 * @returns null when the address is public unicast
 */
export function addressRefusal(address: string, host?: string): string | null {
  const range = refusedRange(address);
  if (!range) return null;
  const where = host && host !== address ? `${host} 解析到的地址 ${address}` : `目标地址 ${address}`;
  return `${where} 属于${range}，不允许取证访问`;
}

/** True for an IPv4 or IPv6 literal. */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(host);
}

/**
 * The `address:port` pairs of CAPTURE_TEST_ALLOW (comma-separated; IPv6 as `[::1]:8443`), normalized.
 * @throws Error for an entry that is not an IP address and a port
 */
export function parseAllowList(text: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const raw of (text ?? '').split(',').map((s) => s.trim())) {
    if (raw === '') continue;
    const m = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(raw);
    if (!m || !ipaddr.isValid(m[1]!) || Number(m[2]) < 1 || Number(m[2]) > 65535) {
      throw new Error(`CAPTURE_TEST_ALLOW: ${raw} is not <ip>:<port>`);
    }
    out.add(allowKey(m[1]!, Number(m[2])));
  }
  return out;
}

/** The allow-list key of an address and port (the address in ipaddr.js's normal form). */
export function allowKey(address: string, port: number): string {
  return `${ipaddr.parse(address).toNormalizedString()}:${port}`;
}
