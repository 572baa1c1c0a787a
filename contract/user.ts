import { z } from 'zod';

import { featureNames } from './features';
import { roles } from './roles';
import { themeChoices } from './theme';

export const role = z.enum(roles);

export const userStatus = z.enum(['active', 'inactive']);
export type UserStatus = z.infer<typeof userStatus>;

/** Package names a subscription can carry; `free` is the default when none applies. */
export const DEFAULT_PACKAGE = 'free';

export const user = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role,
  status: userStatus,
  verified: z.boolean(),
  package_name: z.string(),
  image_url: z.string().nullable(),
  department_id: z.string().nullable(),
  unit_id: z.string().nullable(),
  client_id: z.string().nullable(),
  /** What the organisation's active package allows in the chat; computed and enforced by the server. */
  features: z.array(z.enum(featureNames)),
  /** The person's colour theme: only in their own views (sign-in, /users/me, profile, preferences), not in lists. */
  theme: z.enum(themeChoices).optional(),
});
export type User = z.infer<typeof user>;
