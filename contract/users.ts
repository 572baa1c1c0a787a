import { z } from 'zod';
import { pageFields } from './envelope';
import { choiceField, ID_MAX_LENGTH, idField, pageField, pageSizeField, queryText, requestBody, requiredText } from './fields';
import { USER_NAME_MAX_LENGTH, USER_PAGE_SIZE, USER_NAME_NOT_TEXT, USER_NAME_REQUIRED, USER_NAME_TOO_LONG } from './users-constants';
import { user } from './user';

/** GET /users/: one organisation's people by name. */
export const userListQuery = z.object({
  page: pageField(),
  page_size: pageSizeField(USER_PAGE_SIZE),
  search: queryText('search', 254).optional().describe('Part of the name or e-mail address, case-insensitively; trimmed.'),
  status: choiceField('status', ['active', 'inactive']).optional(),
  client_id: idField('client_id')
    .optional()
    .describe("Superusers: whose users (every organisation's when absent). An admin sees only their own organisation's."),
});
export type UserListQuery = z.input<typeof userListQuery>;

export const userList = z.object({ users: z.array(user), ...pageFields });
export type UserList = z.infer<typeof userList>;

/** A department or unit id in a body, or null for none. */
const assignmentField = (name: string) =>
  z
    .string({ error: `${name} must be an id or null` })
    .min(1, { error: `${name} must be an id or null` })
    .max(ID_MAX_LENGTH, { error: `${name} must be an id of at most ${ID_MAX_LENGTH} characters, or null` })
    .nullable()
    .optional();

/** PATCH /users/{id}: every field optional; a field left out keeps its value (a new department clears the unit). */
export const updateUserRequest = requestBody({
  name: z
    .string(requiredText(USER_NAME_REQUIRED, USER_NAME_NOT_TEXT))
    .trim()
    .min(1, USER_NAME_REQUIRED)
    .max(USER_NAME_MAX_LENGTH, USER_NAME_TOO_LONG)
    .optional()
    .describe(`Trimmed; at most ${USER_NAME_MAX_LENGTH} characters.`),
  role: choiceField('role', ['user', 'admin']).optional(),
  department_id: assignmentField('department_id'),
  unit_id: assignmentField('unit_id'),
});
export type UpdateUserRequest = z.infer<typeof updateUserRequest>;

/** PATCH /users/{id}/status?status=. */
export const userStatusQuery = z.object({ status: choiceField('status', ['active', 'inactive']) });
export type UserStatusQuery = z.infer<typeof userStatusQuery>;
