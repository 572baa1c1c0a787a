/** Shared looks of the form fields (text field, text area, select, date picker). */
export const fieldStyles = {
  root: 'flex flex-col gap-1.5',
  label: 'text-sm font-medium text-gray-800 dark:text-gray-200',
  required: 'ml-0.5 text-red-600 dark:text-red-400',
  control:
    'w-full rounded-lg border border-gray-300 bg-white px-3 text-base text-gray-900 shadow-xs transition-colors sm:text-sm ' +
    'placeholder:text-gray-500 hover:border-gray-400 focus:border-blue-600 ' +
    'data-[invalid]:border-red-600 data-[disabled]:cursor-not-allowed ' +
    // Disabled: flat and grey but readable, placeholders included (4.6:1 and up); a faded field fell under 4.5:1.
    'data-[disabled]:border-gray-200 data-[disabled]:bg-gray-50 data-[disabled]:text-gray-600 data-[disabled]:shadow-none ' +
    'dark:data-[disabled]:border-gray-700 dark:data-[disabled]:bg-gray-800 dark:data-[disabled]:text-gray-400 ' +
    'read-only:bg-gray-50 read-only:hover:border-gray-300 ' +
    'dark:border-gray-600 dark:bg-gray-900 dark:text-gray-100 dark:placeholder:text-gray-400 dark:hover:border-gray-500 ' +
    'dark:focus:border-blue-400 dark:data-[invalid]:border-red-400 dark:read-only:bg-gray-800',
  description: 'text-sm text-gray-600 dark:text-gray-400',
  error: 'text-sm text-red-700 dark:text-red-400',
  popover:
    'rounded-xl border border-gray-200 bg-white text-gray-900 shadow-lg outline-hidden dark:border-gray-700 dark:bg-gray-800 dark:text-gray-100 ' +
    'transition duration-100 data-[entering]:opacity-0 data-[exiting]:opacity-0 motion-reduce:transition-none',
} as const;
