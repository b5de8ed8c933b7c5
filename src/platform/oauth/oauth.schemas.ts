// Request and response shapes of OAuth: the apps (/api/oauth/apps), the sign-in page's
// form and the token endpoint. The page and the token endpoint take every field as an
// optional string and check it themselves: their refusals are an HTML page or an
// RFC 6749 error body, which a generic 400 would not be.
import { Type } from 'typebox';
import { nullable } from '../http/nullable.ts';

const NullableTimestamp = nullable(Type.String({ format: 'date-time' }));

export const OAuthAppIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const OAuthAppCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, description: 'Shown to people on the sign-in page' }),
    redirectUris: Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), {
      minItems: 1,
      maxItems: 10,
      description:
        'The exact addresses the browser may be sent back to: https, or http on localhost, 127.0.0.1 or [::1]; ' +
        'no fragment. A redirect_uri must equal one of them character for character.',
    }),
  },
  { examples: [{ name: 'Stock Sync', redirectUris: ['https://stocksync.example.com/oauth/callback'] }] },
);

export const OAuthApp = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  clientId: Type.String({ description: 'Public: send as client_id' }),
  redirectUris: Type.Array(Type.String()),
  secretLastFour: Type.String({ description: 'The last four characters of the client secret' }),
  createdBy: Type.String({ format: 'uuid' }),
  createdAt: Type.String({ format: 'date-time' }),
  deletedAt: NullableTimestamp,
});

export const OAuthAppCreated = Type.Object({
  ...OAuthApp.properties,
  clientSecret: Type.String({
    description: 'Shown this once: it cannot be retrieved later. Keep it on your server only.',
  }),
});

const Field = (description: string) => Type.Optional(Type.String({ maxLength: 4000, description }));

/** GET /oauth/authorize: the authorization request (RFC 6749 4.1.1, RFC 7636). */
export const AuthorizeQuery = Type.Object({
  response_type: Field('code'),
  client_id: Field("The app's client id"),
  redirect_uri: Field('One of the app’s registered addresses, exactly'),
  scope: Field('Space-separated scopes (GET /api-scopes)'),
  state: Field('Echoed back unchanged'),
  code_challenge: Field('PKCE: base64url SHA-256 of the code verifier'),
  code_challenge_method: Field('PKCE: S256 (plain is refused)'),
});

/** POST /oauth/authorize: the sign-in page's form (the request again, credentials, ticks). */
export const AuthorizeForm = Type.Object(
  {
    ...AuthorizeQuery.properties,
    email: Field('Sign-in e-mail'),
    password: Field('The password as typed (the page sends it over TLS; the server hashes it)'),
    totp_code: Field('Authenticator or recovery code, on the second-factor step'),
    pending: Field('The signed state of a sign-in waiting for its second factor'),
    action: Field('allow or deny'),
  },
  {
    additionalProperties: Type.String({ maxLength: 200 }),
    description: 'Scopes left ticked arrive as fields `grant.<scope>`.',
  },
);

/** POST /oauth/token (RFC 6749 4.1.3 and 6), form-encoded. */
export const TokenForm = Type.Object(
  {
    grant_type: Field('authorization_code or refresh_token'),
    code: Field('The code from the redirect (authorization_code)'),
    redirect_uri: Field('The same redirect_uri as in the authorization request (authorization_code)'),
    code_verifier: Field('PKCE verifier, when the request carried a code_challenge'),
    refresh_token: Field('refresh_token grant'),
    client_id: Field('Or in HTTP Basic authentication'),
    client_secret: Field('Or in HTTP Basic authentication; always required'),
    scope: Field('Ignored: a connection keeps the scopes the person left ticked'),
  },
  { additionalProperties: Type.String({ maxLength: 4000 }) },
);

export const TokenResponse = Type.Object({
  access_token: Type.String({ description: 'Send as Authorization: Bearer on /api calls' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds: 3600' }),
  refresh_token: Type.String({ description: 'Single use: each refresh answers a new one' }),
  scope: Type.String({ description: 'The scopes the person left ticked, space-separated' }),
});

/** Authorization server metadata (RFC 8414). */
export const ServerMetadata = Type.Object({
  issuer: Type.String(),
  authorization_endpoint: Type.String(),
  token_endpoint: Type.String(),
  response_types_supported: Type.Array(Type.String()),
  grant_types_supported: Type.Array(Type.String()),
  code_challenge_methods_supported: Type.Array(Type.String()),
  token_endpoint_auth_methods_supported: Type.Array(Type.String()),
  scopes_supported: Type.Array(Type.String()),
});
