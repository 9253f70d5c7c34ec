import type { ParseKeys } from 'i18next';

/** `handle` of a route: the page title and, where useful, a description (both message keys). */
export interface RouteMeta {
  title: ParseKeys;
  description?: ParseKeys;
  /** Titles of the screens one route shows by its `?view=` (the auth page's register, forgot…). */
  views?: Partial<Record<string, ParseKeys>>;
}

export function meta(
  title: ParseKeys,
  description?: ParseKeys,
  views?: Partial<Record<string, ParseKeys>>,
): RouteMeta {
  return { title, description, views };
}

/** The title key for the current `?view=`, else the route's own. */
export function titleOf(meta: RouteMeta, search: string): ParseKeys {
  const view = new URLSearchParams(search).get('view');
  return (view && meta.views?.[view]) || meta.title;
}

export function isRouteMeta(value: unknown): value is RouteMeta {
  return typeof value === 'object' && value !== null && typeof (value as RouteMeta).title === 'string';
}
