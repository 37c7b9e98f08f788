import { FAMILY_ROUTES } from './routes';

/** A family's page and the token of its link. */
export interface FamilyRoute {
  screen: (typeof FAMILY_ROUTES)[number][1];
  token: string;
}

/**
 * The family's page `pathname` opens (`/approve/:token`, `/sign/:token`, a trailing slash
 * allowed), with its link's token decoded as a router would; null for any other path. A
 * token that cannot be decoded is passed on as it is, for the server to answer with its
 * one message for bad links.
 */
export function familyRoute(pathname: string): FamilyRoute | null {
  const [, head, token, ...rest] = pathname.split('/');
  const route = FAMILY_ROUTES.find(([path]) => path === `/${head}/:token`);
  if (!route || !token || rest.length > 1 || (rest.length === 1 && rest[0] !== '')) return null;
  try {
    return { screen: route[1], token: decodeURIComponent(token) };
  } catch {
    return { screen: route[1], token };
  }
}
