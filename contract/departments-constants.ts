// Spec texts and limits of departments and units, free of zod (the SPA's forms check them before sending).

/** Department and unit names alike, counted after trimming. */
export const NAME_MAX_LENGTH = 100;

export const DEPARTMENT_NAME_REQUIRED = 'Department name is required';
export const DEPARTMENT_NAME_NOT_TEXT = 'Department name must be text';
export const DEPARTMENT_NAME_TOO_LONG = `Department name cannot be more than ${NAME_MAX_LENGTH} characters`;
export const DEPARTMENT_NAME_TAKEN = 'A department with this name already exists';
export const DEPARTMENT_NOT_FOUND = 'Department not found';

export const UNIT_NAME_REQUIRED = 'Unit name is required';
export const UNIT_NAME_NOT_TEXT = 'Unit name must be text';
export const UNIT_NAME_TOO_LONG = `Unit name cannot be more than ${NAME_MAX_LENGTH} characters`;
export const UNIT_NAME_TAKEN = 'A unit with this name already exists in this department';
export const UNIT_NOT_FOUND = 'Unit not found';

/** Administration spec section 8 (the spec has no success text for renaming a unit; this one follows the others). */
export const DEPARTMENT_CREATED = 'Department created successfully';
export const DEPARTMENT_UPDATED = 'Department updated successfully';
export const DEPARTMENT_DELETED = 'Department deleted successfully';
export const UNIT_CREATED = 'Unit created successfully';
export const UNIT_UPDATED = 'Unit updated successfully';
export const UNIT_DELETED = 'Unit deleted successfully';

export const DEPARTMENTS_FETCH_FAILED = 'Failed to fetch departments';
export const DEPARTMENT_CREATE_FAILED = 'Failed to create department';
export const DEPARTMENT_UPDATE_FAILED = 'Failed to update department';
export const DEPARTMENT_DELETE_FAILED = 'Failed to delete department';
export const UNIT_CREATE_FAILED = 'Failed to create unit';
export const UNIT_UPDATE_FAILED = 'Failed to update unit';
export const UNIT_DELETE_FAILED = 'Failed to delete unit';

export const DEPARTMENT_DELETE_CONFIRM = 'Are you sure you want to delete this department?';
export const UNIT_DELETE_CONFIRM = 'Are you sure you want to delete this unit?';

/** GET /departments?client_id= naming another organisation than the caller's (the superuser may name any). */
export const OTHER_ORGANISATION_DEPARTMENTS = "You can only see your own organisation's departments";
