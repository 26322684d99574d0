/**
 * Where each area plugs its queue into the operator console (docs/decisions/015-operator-console-roles.md): the
 * area's ops routes add `{area, role, waiting}` to `app.opsQueues`; the console home lists the queues whose role
 * the operator holds, and the audit log shows the areas of those roles (every area to an admin).
 */
import type { OpsQueueItem, OpsRole } from '../../contract/ops.ts';

/** One area's queue as the console sees it. */
export interface OpsQueue {
  /** The area (`kyc`, …), also its audit entries' area. */
  area: string;
  /** The role that opens the queue (and the area's audit entries). */
  role: OpsRole;
  /**
   * What waits in the queue: how many, and the oldest `limit` items.
   * @param limit at most this many items
   */
  waiting(limit: number): Promise<{ count: number; items: OpsQueueItem[] }>;
}

/** The console's own area: operator accounts (created and changed with the command line); admin only. */
export const OPS_AREA = 'ops';

/** The registry of queues (one per platform, decorated as `app.opsQueues`). */
export class OpsQueues {
  readonly #queues: OpsQueue[] = [];

  /** Adds an area's queue. @throws Error when the area already has one */
  add(queue: OpsQueue): void {
    if (this.#queues.some((q) => q.area === queue.area))
      throw new Error(`ops queue ${queue.area} added twice`);
    this.#queues.push(queue);
  }

  /** The queues an operator with `roles` may see, in the order they were added. */
  visibleTo(roles: readonly OpsRole[]): OpsQueue[] {
    return this.#queues.filter((q) => roles.includes(q.role));
  }

  /** The audit areas an operator with `roles` may read: null (all) for an admin, else the areas of their queues. */
  auditAreasFor(roles: readonly OpsRole[]): string[] | null {
    return roles.includes('admin') ? null : this.visibleTo(roles).map((q) => q.area);
  }
}
