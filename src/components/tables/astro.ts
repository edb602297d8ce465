/* The server-rendered lists' parts, for the pages (the islands' table is ./Table.tsx). */
export { default as DataTable } from './DataTable.astro';
export { default as FilterForm } from './FilterForm.astro';
export { default as SearchFilter } from './SearchFilter.astro';
export { default as SelectFilter } from './SelectFilter.astro';
