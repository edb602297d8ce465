// Holds the PGlite data-directory lock of argv[2] as a portal server would, until killed.
// Used by tests/api/pglite-lock.test.ts (run with `node --import tsx`).
import { lockDataDir } from '@server/db/data-dir-lock';

lockDataDir(process.argv[2]!);
process.stdout.write(`locked ${process.pid}\n`);
setInterval(() => {}, 60_000);
