import type { ParseKeys } from 'i18next';

/** `handle` of a route: the page title and, where useful, a description (both message keys). */
export interface RouteMeta {
  title: ParseKeys;
  description?: ParseKeys;
}

export function meta(title: ParseKeys, description?: ParseKeys): RouteMeta {
  return { title, description };
}

export function isRouteMeta(value: unknown): value is RouteMeta {
  return typeof value === 'object' && value !== null && typeof (value as RouteMeta).title === 'string';
}
