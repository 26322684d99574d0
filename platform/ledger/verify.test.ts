/**
 * The pure Merkle functions (verify.ts, tree.ts) against the Certificate Transparency reference vectors (RFC 6962 /
 * RFC 9162 hashing, as published with the CT and Trillian verifiers) and against an independent, deliberately naive
 * recursive implementation of MTH / PATH / PROOF written straight from RFC 9162 §2.1 below.
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type SignedTreeHead, sthSigningInput } from '../../contract/ledger.ts';
import { canonicalJson } from './canonical.ts';
import { consistencyRanges, inclusionRanges, rangeNodes, splitPoint } from './tree.ts';
import {
  EMPTY_ROOT,
  checkSth,
  leafHash,
  nodeHash,
  publicKeyId,
  rootFromInclusionProof,
  verifyConsistency,
  verifyInclusion,
  verifySth,
} from './verify.ts';

// ---- Reference vectors (data only): the 8 leaves, the roots of sizes 1..8, inclusion and consistency proofs ----
const CT_LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
].map((h) => Buffer.from(h, 'hex'));
const CT_ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const CT_EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
/** `leaf` is 1-based as published; the index is leaf − 1. */
const CT_INCLUSION = [
  {
    leaf: 1,
    size: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    leaf: 6,
    size: 8,
    proof: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  { leaf: 3, size: 3, proof: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    leaf: 2,
    size: 5,
    proof: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
  { leaf: 1, size: 1, proof: [] },
];
const CT_CONSISTENCY = [
  { first: 1, second: 1, proof: [] },
  {
    first: 1,
    second: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    first: 6,
    second: 8,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  {
    first: 2,
    second: 5,
    proof: [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
];

// ---- An independent implementation, straight from RFC 9162 §2.1: MTH, PATH and SUBPROOF as written there, over
// D[s:e] of one leaf-hash array; only MTH is memoized (by range) so that every pair up to 300 leaves stays fast ----
const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const refLeaf = (d: Buffer) => sha(Buffer.from([0]), d);
/** k: the largest power of two smaller than n. */
const refK = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1);
class RefTree {
  private memo = new Map<string, Buffer>();
  readonly d: Buffer[];
  constructor(d: Buffer[]) {
    this.d = d;
  }
  /** MTH(D[s:e]). */
  mth(s = 0, e = this.d.length): Buffer {
    const n = e - s;
    if (n === 0) return sha();
    if (n === 1) return this.d[s]!; // d holds leaf hashes already
    const key = `${s}:${e}`;
    let h = this.memo.get(key);
    if (!h) {
      const k = refK(n);
      h = sha(Buffer.from([1]), this.mth(s, s + k), this.mth(s + k, e));
      this.memo.set(key, h);
    }
    return h;
  }
  /** PATH(m, D[s:e]). */
  path(m: number, s = 0, e = this.d.length): Buffer[] {
    const n = e - s;
    if (n <= 1) return [];
    const k = refK(n);
    return m < k
      ? [...this.path(m, s, s + k), this.mth(s + k, e)]
      : [...this.path(m - k, s + k, e), this.mth(s, s + k)];
  }
  /** SUBPROOF(m, D[s:e], b). */
  subproof(m: number, s: number, e: number, b: boolean): Buffer[] {
    const n = e - s;
    if (m === n) return b ? [] : [this.mth(s, e)];
    const k = refK(n);
    return m <= k
      ? [...this.subproof(m, s, s + k, b), this.mth(s + k, e)]
      : [...this.subproof(m - k, s + k, e, false), this.mth(s, s + k)];
  }
  /** PROOF(m, D[n]) for n = the whole array. */
  proof(m: number): Buffer[] {
    return this.subproof(m, 0, this.d.length, true);
  }
}
const refMth = (d: Buffer[]) => new RefTree(d).mth();
const hex = (bs: Buffer[]) => bs.map((b) => b.toString('hex'));

/** A tiny seeded PRNG (mulberry32) so failures reproduce. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** In-memory use of tree.ts's plans: MTH of a range folded from complete subtrees computed by the reference MTH. */
function planHash(tree: RefTree, [s, e]: readonly [number, number]): string {
  const nodes = rangeNodes(s, e).map((n) =>
    tree.mth(n.index * 2 ** n.level, (n.index + 1) * 2 ** n.level).toString('hex'),
  );
  let acc = nodes[nodes.length - 1]!;
  for (let i = nodes.length - 2; i >= 0; i--) acc = nodeHash(nodes[i]!, acc);
  return acc;
}

const flip = (h: string, at = 0) => h.slice(0, at) + (h[at] === '0' ? '1' : '0') + h.slice(at + 1);
const SOME = 'abacaba000000000000000000000000000000000000000000060061e00123456';

describe('RFC 9162 hashing against the CT reference vectors', () => {
  const leaves = CT_LEAVES.map((d) => leafHash(d));

  it('empty root, leaf hash, roots of sizes 1..8', () => {
    expect(EMPTY_ROOT).toBe(CT_EMPTY);
    expect(leafHash(new Uint8Array())).toBe(CT_ROOTS[0]);
    for (let n = 1; n <= 8; n++) {
      expect(refMth(CT_LEAVES.slice(0, n).map(refLeaf)).toString('hex')).toBe(CT_ROOTS[n - 1]);
      expect(planHash(new RefTree(CT_LEAVES.map(refLeaf).slice(0, n)), [0, n])).toBe(CT_ROOTS[n - 1]);
    }
  });

  it('inclusion proofs: generated as published, verify, and every corruption fails', () => {
    for (const v of CT_INCLUSION) {
      const index = v.leaf - 1;
      const root = CT_ROOTS[v.size - 1]!;
      const all = new RefTree(CT_LEAVES.map(refLeaf).slice(0, v.size));
      expect(inclusionRanges(index, v.size).map((r) => planHash(all, r))).toEqual(v.proof);
      expect(verifyInclusion(leaves[index]!, index, v.size, v.proof, root)).toBe(true);
      expect(rootFromInclusionProof(leaves[index]!, index, v.size, v.proof)).toBe(root);
      const probes: [number, number, string, string, string[]][] = [
        [index - 1, v.size, root, leaves[index]!, v.proof],
        [index + 1, v.size, root, leaves[index]!, v.proof],
        [index ^ 2, v.size, root, leaves[index]!, v.proof],
        [index, v.size * 2, root, leaves[index]!, v.proof],
        [index, Math.floor(v.size / 2), root, leaves[index]!, v.proof],
        [index, v.size, root, leafHash('WrongLeaf'), v.proof],
        [index, v.size, CT_EMPTY, leaves[index]!, v.proof],
        [index, v.size, SOME, leaves[index]!, v.proof],
        [index, v.size, root, leaves[index]!, [...v.proof, '']],
        [index, v.size, root, leaves[index]!, [...v.proof, root]],
        [index, v.size, root, leaves[index]!, ['', ...v.proof]],
        [index, v.size, root, leaves[index]!, [root, ...v.proof]],
        ...v.proof.map(
          (_, i) =>
            [index, v.size, root, leaves[index]!, v.proof.map((p, j) => (i === j ? flip(p) : p))] as [
              number,
              number,
              string,
              string,
              string[],
            ],
        ),
      ];
      if (v.proof.length > 0) probes.push([index, v.size, root, leaves[index]!, v.proof.slice(0, -1)]);
      if (v.proof.length > 1)
        probes.push([index, v.size, root, leaves[index]!, [v.proof[0]!, SOME, ...v.proof.slice(1)]]);
      for (const [i, n, r, l, p] of probes) {
        // index − 1 with a wrong leaf can be a legitimate different statement only by a hash collision
        expect(verifyInclusion(l, i, n, p, r), `${i}/${n} ${p.length}`).toBe(false);
      }
    }
  });

  it('inclusion edge cases of the reference verifiers', () => {
    for (const [index, size] of [
      [0, 0],
      [0, 1],
      [1, 0],
      [2, 1],
    ] as const) {
      expect(verifyInclusion(SOME, index, size, [], '')).toBe(false);
      expect(verifyInclusion('', index, size, [], CT_EMPTY)).toBe(false);
      expect(verifyInclusion(SOME, index, size, [], CT_EMPTY)).toBe(false);
    }
    const h = leafHash('data');
    expect(verifyInclusion(h, 0, 1, [], h)).toBe(true);
    expect(verifyInclusion('', 0, 1, [], h)).toBe(false);
    expect(verifyInclusion(h, 0, 1, [], '')).toBe(false);
    expect(verifyInclusion(h.toUpperCase(), 0, 1, [], h)).toBe(false);
  });

  it('consistency proofs: generated as published, verify, and every corruption fails', () => {
    for (const v of CT_CONSISTENCY) {
      const all = new RefTree(CT_LEAVES.map(refLeaf).slice(0, v.second));
      const r1 = CT_ROOTS[v.first - 1]!;
      const r2 = CT_ROOTS[v.second - 1]!;
      expect(consistencyRanges(v.first, v.second).map((r) => planHash(all, r))).toEqual(v.proof);
      expect(verifyConsistency(v.first, v.second, r1, r2, v.proof)).toBe(true);
      if (v.proof.length === 0) continue;
      const p = v.proof;
      const probes: [number, number, string, string, string[]][] = [
        [v.first - 1, v.second, r1, r2, p],
        [v.first + 1, v.second, r1, r2, p],
        [v.first ^ 2, v.second, r1, r2, p],
        [v.first, v.second * 2, r1, r2, p],
        [v.first, Math.floor(v.second / 2), r1, r2, p],
        [v.first, v.second, SOME, r2, p],
        [v.first, v.second, r1, SOME, p],
        [v.first, v.second, r2, r1, p],
        [v.first, v.second, r1, r2, []],
        [v.first, v.second, r1, r2, [...p, '']],
        [v.first, v.second, r1, r2, [...p, r1]],
        [v.first, v.second, r1, r2, [...p, r2]],
        [v.first, v.second, r1, r2, ['', ...p]],
        [v.first, v.second, r1, r2, [r1, ...p]],
        [v.first, v.second, r1, r2, [r2, ...p]],
        [v.first, v.second, r1, r2, [p[0]!, ...p]],
        [v.first, v.second, r1, r2, p.slice(0, -1)],
        ...p.map(
          (_, i) =>
            [v.first, v.second, r1, r2, p.map((x, j) => (i === j ? flip(x, 1) : x))] as [
              number,
              number,
              string,
              string,
              string[],
            ],
        ),
      ];
      for (const [a, b, x, y, q] of probes)
        expect(verifyConsistency(a, b, x, y, q), `${a}->${b}`).toBe(false);
    }
  });

  it('consistency edge cases of the reference verifiers', () => {
    const r1 = leafHash('don’t care 1');
    const r2 = leafHash('don’t care 2');
    expect(verifyConsistency(0, 0, r1, r2, [])).toBe(false);
    expect(verifyConsistency(1, 1, r1, r2, [])).toBe(false);
    expect(verifyConsistency(0, 0, r1, r1, [])).toBe(true);
    expect(verifyConsistency(0, 1, r1, r2, [])).toBe(true);
    expect(verifyConsistency(1, 1, r2, r2, [])).toBe(true);
    expect(verifyConsistency(1, 0, r1, r2, [])).toBe(false);
    expect(verifyConsistency(2, 1, r1, r2, [])).toBe(false);
    expect(verifyConsistency(1, 2, r1, r2, [])).toBe(false);
    expect(verifyConsistency(0, 0, CT_EMPTY, r2, [])).toBe(false);
    expect(verifyConsistency(1, 1, CT_EMPTY, r2, [])).toBe(false);
    expect(verifyConsistency(0, 0, CT_EMPTY, CT_EMPTY, [CT_EMPTY])).toBe(false);
    expect(verifyConsistency(0, 1, CT_EMPTY, CT_EMPTY, [CT_EMPTY])).toBe(false);
    expect(verifyConsistency(1, 1, CT_EMPTY, CT_EMPTY, [CT_EMPTY])).toBe(false);
  });
});

describe('against the independent recursive implementation', () => {
  it('splitPoint is the largest power of two below n', () => {
    for (let n = 2; n < 5000; n++) expect(splitPoint(n)).toBe(refK(n));
  });

  // an exhaustive sweep (~17 s on a loaded 2-core machine): more than the default 30 s budget
  it(
    'every (index, size) inclusion proof for sizes 1..300 equals PATH and verifies',
    { timeout: 120_000 },
    () => {
      const rand = rng(9162);
      const data = Array.from({ length: 300 }, (_, i) =>
        Buffer.from(Array.from({ length: 1 + (i % 7) }, () => Math.floor(rand() * 256))),
      );
      const leaves = data.map(refLeaf);
      for (let size = 1; size <= 300; size++) {
        const tree = new RefTree(leaves.slice(0, size));
        const root = tree.mth().toString('hex');
        expect(planHash(tree, [0, size])).toBe(root);
        for (let index = 0; index < size; index++) {
          const expected = hex(tree.path(index));
          const got = inclusionRanges(index, size).map((r) => planHash(tree, r));
          expect(got).toEqual(expected);
          expect(verifyInclusion(leafHash(data[index]!), index, size, got, root)).toBe(true);
          if (index + 1 < size)
            expect(verifyInclusion(leafHash(data[index]!), index + 1, size, got, root)).toBe(false);
        }
      }
    },
  );

  // an exhaustive sweep (~17 s on a loaded 2-core machine): more than the default 30 s budget
  it('every (m, n) consistency proof for n ≤ 300 equals PROOF and verifies', { timeout: 120_000 }, () => {
    const leaves = Array.from({ length: 300 }, (_, i) => refLeaf(Buffer.from(`leaf ${i}`)));
    const whole = new RefTree(leaves);
    const roots = [EMPTY_ROOT, ...leaves.map((_, i) => whole.mth(0, i + 1).toString('hex'))];
    for (let n = 1; n <= 300; n++) {
      const tree = new RefTree(leaves.slice(0, n));
      for (let m = 0; m <= n; m++) {
        const expected = m === 0 ? [] : hex(tree.proof(m));
        const got = consistencyRanges(m, n).map((r) => planHash(tree, r));
        expect(got, `${m}->${n}`).toEqual(expected);
        expect(verifyConsistency(m, n, roots[m]!, roots[n]!, got), `${m}->${n}`).toBe(true);
        if (m > 0 && m < n) {
          expect(verifyConsistency(m, n, roots[m - 1]!, roots[n]!, got)).toBe(false);
          expect(verifyConsistency(m, n, roots[m]!, roots[n - 1]!, got)).toBe(false);
          expect(verifyConsistency(m, n, roots[m]!, roots[n]!, got.slice(1))).toBe(false);
        }
      }
    }
  });

  it('rangeNodes decomposes [0, n) into the binary decomposition of n', () => {
    for (const n of [1, 2, 3, 5, 8, 13, 1000, 1_000_000, 2 ** 40 + 3]) {
      const nodes = rangeNodes(0, n);
      expect(nodes.reduce((s, x) => s + 2 ** x.level, 0)).toBe(n);
      expect(nodes.length).toBe(n.toString(2).replace(/0/g, '').length);
    }
  });
});

describe('signed tree heads', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const keyId = publicKeyId(pem);
  const signed = (treeSize: number, rootHash: string, timestamp: number): SignedTreeHead => ({
    treeSize,
    rootHash,
    timestamp,
    keyId,
    signature: sign(
      null,
      Buffer.from(sthSigningInput({ treeSize, rootHash, timestamp })),
      privateKey,
    ).toString('base64'),
  });

  it('keyId is the SHA-256 of the raw 32-byte key', () => {
    const raw = publicKey.export({ type: 'spki', format: 'der' }).subarray(-32);
    expect(keyId).toBe(createHash('sha256').update(raw).digest('hex'));
  });

  it('verifies a good head and refuses every changed field, a wrong key, a bad keyId', () => {
    const sth = signed(8, CT_ROOTS[7]!, 1_700_000_000_000);
    expect(verifySth(sth, pem)).toBe(true);
    expect(verifySth({ ...sth, treeSize: 9 }, pem)).toBe(false);
    expect(verifySth({ ...sth, rootHash: flip(sth.rootHash) }, pem)).toBe(false);
    expect(verifySth({ ...sth, timestamp: sth.timestamp + 1 }, pem)).toBe(false);
    const sig = Buffer.from(sth.signature, 'base64');
    sig[10]! ^= 1;
    expect(checkSth({ ...sth, signature: sig.toString('base64') }, pem)).toEqual({
      ok: false,
      reason: 'Ed25519 signature does not verify',
    });
    expect(verifySth({ ...sth, signature: sth.signature.slice(0, -4) }, pem)).toBe(false);
    expect(verifySth({ ...sth, keyId: flip(keyId) }, pem)).toBe(false);
    const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(checkSth(sth, other)).toMatchObject({ ok: false, reason: expect.stringContaining('keyId') });
    expect(checkSth({ ...sth, keyId: publicKeyId(other) }, other)).toMatchObject({ ok: false });
    expect(checkSth(sth, 'not a pem')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('public key'),
    });
  });
});

describe('canonical JSON', () => {
  it('sorts keys at every level, drops undefined, no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 'é' }], c: null }, u: undefined })).toBe(
      '{"a":{"c":null,"d":[2,{"y":"é","z":1}]},"b":1}',
    );
  });
});
