/**
 * The region tree for the address form (without Hong Kong, Macau and Taiwan: spec 02 §9), read from the platform (`GET /api/User/district`, GB/T 2260 data) and kept
 * in memory for a day (the platform answers it with a one-day cache header too).
 */
import type { AppLoadContext } from 'react-router';
import { AddressPaths, NO_SHIPPING_PROVINCE_CODES, type RegionNode } from '../../contract/address.ts';
import { isSuccess } from '../../contract/envelope.ts';
import { apiCall } from '../lib/api.server.ts';

let cached: { at: number; tree: RegionNode[] } | null = null;
const TTL_MS = 24 * 3600 * 1000;

/** The province → city → area tree. @throws the api client's 502 response when the platform is down. */
export async function regionTree(context: AppLoadContext): Promise<RegionNode[]> {
  if (cached && Date.now() - cached.at < TTL_MS) return cached.tree;
  const res = await apiCall<RegionNode[]>(context, AddressPaths.district);
  if (!isSuccess(res.code)) return [];
  // Delivery addresses: no shipping to Hong Kong, Macau or Taiwan (spec 02 §9).
  const tree = res.data.filter((p) => !NO_SHIPPING_PROVINCE_CODES.includes(p.code));
  cached = { at: Date.now(), tree };
  return tree;
}
