/** The signed-in user and the portal's session on the wire (decision 043). */

/** `GET /user/me`. */
export type Me = { id: string; email: string; name: string | null };

/** `GET /user/page-version`: the user's id and the version of what their pages show (decision 032). */
export type PageVersion = { userId: string; version: string };

/** `POST /user/session/refresh` (OIDC mode): a fresh credential for the session. */
export type SessionRefresh = { token: string; expiresAt: string };

/** `DELETE /user/session`: where to send the browser so the provider's session ends too, if anywhere. */
export type SessionEnd = { signedOut: boolean; endSessionUrl: string | null };
