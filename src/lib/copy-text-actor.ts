import { fromPromise } from 'xstate';

/** The `copyText` slot of the machines that put a text into the clipboard (the Share link, a saved prompt). */
export const copyTextActor = fromPromise<void, { text: string }>(({ input }) => navigator.clipboard.writeText(input.text));
