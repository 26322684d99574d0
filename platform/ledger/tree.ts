/**
 * The shape arithmetic of the Merkle log (RFC 9162 §2.1), independent of storage: which complete subtrees make up a
 * range of leaves, which ranges an inclusion proof (§2.1.3.1 PATH) or a consistency proof (§2.1.4.1 PROOF/SUBPROOF)
 * consists of, and which stored nodes an append completes.
 *
 * Node coordinates: the node at `level` L and `index` i is the root of the complete subtree over the leaves
 * [i·2^L, (i+1)·2^L); level 0 nodes are the leaf hashes. Only complete subtrees are ever stored; the hash of any
 * other range is folded from its complete subtrees, so stored nodes never change once written.
 */

/** A complete subtree: leaves [index·2^level, (index+1)·2^level). */
export interface NodeId {
  level: number;
  index: number;
}

/** A range of leaves [start, end), 0-based, end exclusive. */
export type LeafRange = readonly [start: number, end: number];

/** The largest power of two strictly less than `n` (n ≥ 2), the split point k of RFC 9162 §2.1.1. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The complete subtrees whose hashes, folded from the right (`H(a, H(b, H(c, …)))`), give MTH of the leaves
 * [start, end): left to right, decreasing sizes (the binary decomposition of end − start). `start` must be a multiple
 * of the first subtree's size, which holds for every range the proofs below produce and for [0, n).
 */
export function rangeNodes(start: number, end: number): NodeId[] {
  const nodes: NodeId[] = [];
  let s = start;
  while (s < end) {
    const n = end - s;
    const size = n === 1 ? 1 : isPowerOfTwo(n) ? n : splitPoint(n);
    if (s % size !== 0) throw new RangeError(`range [${start}, ${end}) is not aligned`);
    nodes.push({ level: Math.log2(size), index: s / size });
    s += size;
  }
  return nodes;
}

function isPowerOfTwo(n: number): boolean {
  return n > 0 && 2 ** Math.round(Math.log2(n)) === n;
}

/**
 * The ranges whose MTHs form the inclusion proof of leaf `index` in the tree of `size` leaves, in proof order
 * (leaf to root): RFC 9162 §2.1.3.1 PATH(m, D[n]).
 * @throws RangeError unless 0 ≤ index < size
 */
export function inclusionRanges(index: number, size: number): LeafRange[] {
  if (!(index >= 0 && index < size)) throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
  const out: LeafRange[] = [];
  // iterate the recursion top-down, then reverse: PATH lists the deepest sibling first
  let m = index;
  let n = size;
  let offset = 0;
  while (n > 1) {
    const k = splitPoint(n);
    if (m < k) {
      out.push([offset + k, offset + n]);
      n = k;
    } else {
      out.push([offset, offset + k]);
      m -= k;
      offset += k;
      n -= k;
    }
  }
  return out.reverse();
}

/**
 * The ranges whose MTHs form the consistency proof between the trees of `first` and `second` leaves, in proof order:
 * RFC 9162 §2.1.4.1 PROOF(m, D[n]) = SUBPROOF(m, D[n], true). Empty when first = second (or first = 0).
 * @throws RangeError unless 0 ≤ first ≤ second
 */
export function consistencyRanges(first: number, second: number): LeafRange[] {
  if (!(first >= 0 && first <= second))
    throw new RangeError(`no consistency proof from ${first} to ${second}`);
  if (first === 0) return [];
  const out: LeafRange[] = [];
  let m = first;
  let n = second;
  let offset = 0;
  let complete = true; // SUBPROOF's b: the subtree so far is the whole of the old tree
  while (m !== n) {
    const k = splitPoint(n);
    if (m <= k) {
      out.push([offset + k, offset + n]);
      n = k;
    } else {
      out.push([offset, offset + k]);
      m -= k;
      offset += k;
      n -= k;
      complete = false;
    }
  }
  if (!complete) out.push([offset, offset + n]); // SUBPROOF(m, D[m], false) = {MTH(D[m])}
  return out.reverse();
}

/**
 * What appending the leaf at position `index` (the tree then has index + 1 leaves) needs and completes: the left
 * siblings to read, bottom-up, and the coordinates of the new interior nodes in the same order (node i is
 * H(sibling i, node i−1), node −1 being the new leaf). Amortized one node per append, at most log2(index + 1).
 */
export function appendPlan(index: number): { siblings: NodeId[]; created: NodeId[] } {
  const siblings: NodeId[] = [];
  const created: NodeId[] = [];
  let i = index;
  let level = 0;
  while (i % 2 === 1) {
    siblings.push({ level, index: i - 1 });
    i = (i - 1) / 2;
    level++;
    created.push({ level, index: i });
  }
  return { siblings, created };
}

/** A map key for a node. */
export function nodeKey(n: NodeId): string {
  return `${n.level}:${n.index}`;
}
