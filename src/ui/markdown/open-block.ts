import { createContext } from 'react';

/**
 * True inside the block that is still being streamed. Its content changes on every update, so expensive work
 * (syntax highlighting) waits until the block is finished.
 */
export const OpenBlockContext = createContext(false);
