import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';

/*
 * The lock of a PGlite data directory: only one process may open it (DESIGN §6). PGlite takes no
 * lock of its own, so a file next to the directory (`<dir>.lock`) names the holder: its pid and
 * the kernel's start time of that pid. A holder counts as live only if a process with that pid
 * runs now, is not a zombie, and started at the recorded time; anything else is a lock left by a
 * crash (`kill -9`, a power cut, a container restart), taken over at once. Without the start
 * time, a crashed server's pid reused by an unrelated process (or the crashed server lingering
 * as a zombie) kept the directory locked until someone removed the file by hand.
 *
 * The start time comes from /proc (Linux). Where there is no /proc, the pid alone decides, as
 * before. No native module: Node has no flock/fcntl.
 */

/** What the lock file records about its holder. */
export type LockHolder = {
  pid: number;
  /** Start time of the pid (/proc/<pid>/stat field 22, clock ticks since boot); absent off Linux. */
  startTime?: string | undefined;
  since?: string | undefined;
  command?: string | undefined;
  dataDir?: string | undefined;
};

/** A PGlite data directory another live process has open. */
export class DatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: { pid: number; since?: string | undefined; command?: string | undefined },
  ) {
    super(
      `The database in ${dataDir} is in use by process ${holder.pid}${holder.command ? ` (${holder.command})` : ''}. ` +
        'PGlite cannot be shared between processes: stop that process (e.g. the portal server) and try again, ' +
        'or use a PostgreSQL server (DATABASE_URL).',
    );
    this.name = 'DatabaseInUseError';
  }
}

/** State and start time of a process from /proc/<pid>/stat; null if there is none (or no /proc). */
export function procStat(pid: number): { state: string; startTime: string } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); field 22 (starttime) is fields[19].
  const state = fields[0];
  const startTime = fields[19];
  return state && startTime ? { state, startTime } : null;
}

/** The command line of a process, its arguments joined by spaces (Linux); null if unknown. */
function procCommand(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\u0000').filter(Boolean).join(' ');
  } catch {
    return null;
  }
}

const hasProc = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

const signalable = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Whether the recorded holder still runs: the same pid, not a zombie, started when the lock says.
 * A lock written before start times were recorded is live only if the pid's command line still
 * holds the command it recorded.
 */
export function holderIsLive(holder: LockHolder): boolean {
  if (!Number.isSafeInteger(holder.pid) || holder.pid <= 0) return false;
  if (!hasProc) return signalable(holder.pid);
  const stat = procStat(holder.pid);
  if (!stat) return false;
  // A zombie (Z) or dead (X) process has closed its files: a crashed server not yet reaped.
  if (stat.state === 'Z' || stat.state === 'X') return false;
  if (holder.startTime !== undefined) return stat.startTime === holder.startTime;
  const command = procCommand(holder.pid);
  return !!holder.command && command !== null && command.includes(holder.command);
}

/** Who we are, as the lock file records it. */
function self(dataDir: string): LockHolder {
  return {
    pid: process.pid,
    startTime: procStat(process.pid)?.startTime,
    since: new Date().toISOString(),
    command: process.argv.slice(1).join(' ').slice(0, 200),
    dataDir,
  };
}

/**
 * Locks `dataDir` for this process (`<dataDir>.lock`) and returns the release function (also run
 * at exit). Throws DatabaseInUseError while another live process holds it; takes over a lock whose
 * holder is gone, a zombie, or another process reusing its pid.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = `${dataDir}.lock`;
  const me = self(dataDir);
  const mine = JSON.stringify(me);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, mine, { flag: 'wx', mode: 0o600 });
      const release = () => {
        process.off('exit', release);
        try {
          if (readFileSync(file, 'utf8') === mine) unlinkSync(file);
        } catch {
          // already gone
        }
      };
      process.on('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let content = '';
    let holder: Partial<LockHolder> | undefined;
    try {
      content = readFileSync(file, 'utf8');
      holder = JSON.parse(content) as Partial<LockHolder>;
    } catch {
      holder = undefined;
    }
    const pid = typeof holder?.pid === 'number' ? holder.pid : undefined;
    const recorded: LockHolder | undefined =
      pid === undefined
        ? undefined
        : {
            pid,
            startTime: typeof holder?.startTime === 'string' ? holder.startTime : undefined,
            since: typeof holder?.since === 'string' ? holder.since : undefined,
            command: typeof holder?.command === 'string' ? holder.command : undefined,
          };
    // This very process opening the directory again (dev-server module reloads): as before.
    const ours = recorded?.pid === me.pid && (recorded.startTime === undefined || recorded.startTime === me.startTime);
    if (recorded && !ours && holderIsLive(recorded)) throw new DatabaseInUseError(dataDir, recorded);
    try {
      // Remove only the stale lock we judged: another starter may have replaced it meanwhile.
      if (readFileSync(file, 'utf8') === content) unlinkSync(file);
    } catch {
      // gone already: try again
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}
