/**
 * Processes and sockets as Linux's /proc shows them (proc(5)), so a test or a bench sees what a component left
 * running or listening without asking the component: a process's descendants (`/proc/<pid>/stat`'s ppid), whether a
 * process still runs, and the ports this process listens on (/proc/self/fd links `socket:[inode]`, /proc/net/tcp and
 * tcp6 list each socket's local address, state and inode).
 */
import fs from 'node:fs';

/** State 0A of /proc/net/tcp: LISTEN (include/net/tcp_states.h). */
const LISTEN = '0A';

/** The inodes of the sockets among process `pid`'s open file descriptors. */
function socketInodes(pid: number | 'self'): Set<string> {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed between the listing and the read
    }
  }
  return inodes;
}

/** The ports process `pid` (default: this one) listens on over TCP (IPv4 and IPv6), sorted. Linux only. */
export function listeningPorts(pid: number | 'self' = 'self'): number[] {
  const mine = socketInodes(pid);
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.trim().split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const f = line.trim().split(/\s+/);
      if (f[3] !== LISTEN || !mine.has(f[9]!)) continue;
      ports.add(Number.parseInt(f[1]!.split(':')[1]!, 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}

/** Fields of `/proc/<pid>/stat` after the command name (which may hold spaces): [0] state, [1] ppid, … */
function statFields(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The pids of `pid` and all its descendants (read once). */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = Number(statFields(Number(entry))?.[1]);
    if (Number.isFinite(ppid)) children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const out: number[] = [];
  const visit = (p: number) => {
    out.push(p);
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return out;
}

/** Whether process `pid` still runs (a zombie, ended but not yet reaped, counts as ended). */
export function isRunning(pid: number): boolean {
  const state = statFields(pid)?.[0];
  return state !== undefined && state !== 'Z';
}
