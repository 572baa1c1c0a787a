// Imported first by render-static.tsx. The build-time render is a signed-out visitor's first visit: the session
// module reads an empty localStorage when it loads. Node has none (or one that needs a file), so an in-memory one
// stands in; in a browser this module is never loaded.
if (typeof window === 'undefined') {
  const items = new Map<string, string>();
  const storage: Storage = {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true, writable: true });
}
