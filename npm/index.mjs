// The ES module entry: the implementation is index.cjs (one copy of the code, and of the
// module-level state, whichever way the package is loaded).
import shuffleAudit from "./index.cjs";

export const { assertFairShuffle, audit, findBinary, ShuffleError, ShuffleAuditError, version } =
  shuffleAudit;
