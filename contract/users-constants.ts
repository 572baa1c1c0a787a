// Spec texts and limits of the user administration (Users page, Edit User modal), free of zod (the SPA's forms
// check them before sending).

/** Users page size: the list's default (server) and its page buttons (SPA). */
export const USER_PAGE_SIZE = 10;

/** A person's full name, counted after trimming. */
export const USER_NAME_MAX_LENGTH = 100;

export const USER_NAME_REQUIRED = 'Full name is required';
export const USER_NAME_NOT_TEXT = 'Full name must be text';
export const USER_NAME_TOO_LONG = `Full name cannot be more than ${USER_NAME_MAX_LENGTH} characters`;

export const USER_NOT_FOUND = 'User not found';
export const ORGANISATION_NOT_FOUND = 'Organisation not found';
export const OTHER_ORGANISATION_USERS = 'You can only see the users of your own organisation';
export const OWN_ROLE_UNCHANGEABLE = 'You cannot change your own role';
export const OWN_ACCOUNT_UNDEACTIVATABLE = 'You cannot deactivate your own account';
export const USER_DEPARTMENT_NOT_FOUND = 'Department not found in this organisation';
export const USER_UNIT_NOT_IN_DEPARTMENT = 'Unit does not belong to the selected department';
/** Edit User (administration spec section 5): a department with units needs one of them. */
export const USER_UNIT_REQUIRED = 'Choose a unit of the selected department';
export const USER_UNIT_WITHOUT_DEPARTMENT = 'Choose a department before choosing a unit';

/** Administration spec section 8. */
export const USER_UPDATED = 'User updated successfully';
export const USER_STATUS_UPDATED = 'User status updated successfully';
export const USERS_FETCH_FAILED = 'Failed to fetch users';
export const USER_UPDATE_FAILED = 'Failed to update user';
export const USER_STATUS_UPDATE_FAILED = 'Failed to update user status';
