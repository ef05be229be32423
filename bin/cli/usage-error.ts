/** An error the user can fix (bad arguments, unreadable input): printed plainly, exit code 2. */
export class UsageError extends Error {}
