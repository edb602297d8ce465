/** Loads the dialogs chunk (Radix; see ./dialogs.ts); call it early to have it ready when needed. */
export const loadDialogs = () => import('./dialogs');
