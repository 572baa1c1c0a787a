import { z } from 'zod';

// What the server has set up for the chat's tools (issue 28: controls are offered honestly). The package decides
// what a person may use (the user's `features`); this says what the server can do.

/** GET under the API prefix; its own constant, so contract/api-paths.ts stays as it is. */
export const CHAT_TOOLS_PATH = '/chat/tools';

/** Shown on a browsing control when the server has no SEARCH_PROVIDER. */
export const WEB_BROWSING_UNAVAILABLE = 'Web browsing is not set up on this server';

export const chatTools = z.object({
  web_browsing: z.object({
    /** SEARCH_PROVIDER is set. */
    available: z.boolean(),
    /** Why not, when not available. */
    reason: z.string().nullable(),
  }),
  image_generation: z.object({
    /** No IMAGES_MODEL: a labelled demo image is made locally instead. */
    demo: z.boolean(),
  }),
});
export type ChatTools = z.infer<typeof chatTools>;
