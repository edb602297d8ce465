/**
 * Resized copies of images kept in memory (event images, exhibitor logos): the most recently used
 * `size` copies, by key (the file's id and the width). A file's bytes never change, so a copy
 * stays right as long as the caller still serves the file (which it checks before asking here).
 */
export function resizedCache(size: number) {
  const kept = new Map<string, Uint8Array>();
  return {
    /** The kept copy of `key`, or `make()`'s (kept unless null). */
    async get(key: string, make: () => Promise<Uint8Array | null>): Promise<Uint8Array | null> {
      const hit = kept.get(key);
      if (hit) {
        // Most recently used last: the oldest goes first when the cache is full.
        kept.delete(key);
        kept.set(key, hit);
        return hit;
      }
      const made = await make();
      if (!made) return null;
      kept.set(key, made);
      if (kept.size > size) kept.delete(kept.keys().next().value!);
      return made;
    },
  };
}
