// Request and response shapes of OAuth: the apps (/api/oauth/apps), the sign-in page's
// form and the token endpoint. The page and the token endpoint take every field as an
// optional string and check it themselves: their refusals are an HTML page or an
// RFC 6749 error body, which a generic 400 would not be. For the same reason they ignore
// parameters they do not know (RFC 6749 3.1 and 3.2): their schemas say so explicitly
// (`additionalProperties: true`), where every other input refuses unknown properties.
import { Type } from 'typebox';
import { stringEnum } from '../http/enums.ts';
import { nullable } from '../http/nullable.ts';
import { Uuid } from '../http/schema-basics.ts';
import { named } from '../http/schema-names.ts';

const NullableTimestamp = nullable(Type.String({ format: 'date-time' }));

export const OAuthAppCreate = named(
  'OAuthAppCreate',
  Type.Object(
    {
      name: Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Shown to people on the sign-in page',
      }),
      redirectUris: Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), {
        minItems: 1,
        maxItems: 10,
        description:
          'The exact addresses the browser may be sent back to: https, or http on localhost, 127.0.0.1 or [::1]; ' +
          'no fragment. A redirect_uri must equal one of them character for character.',
      }),
    },
    {
      additionalProperties: false,
      examples: [{ name: 'Stock Sync', redirectUris: ['https://stocksync.example.com/oauth/callback'] }],
    },
  ),
);

export const OAuthApp = named(
  'OAuthApp',
  Type.Object({
    id: Uuid,
    name: Type.String(),
    clientId: Type.String({ description: 'Public: send as client_id' }),
    redirectUris: Type.Array(Type.String()),
    secretLastFour: Type.String({ description: 'The last four characters of the client secret' }),
    createdBy: Uuid,
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({
      format: 'date-time',
      description: 'The last change: an app is never edited, so its deletion, or else its creation',
    }),
    deletedAt: NullableTimestamp,
  }),
);

export const OAuthAppCreated = named(
  'OAuthAppWithSecret',
  Type.Object({
    ...OAuthApp.properties,
    clientSecret: Type.String({
      description: 'Shown this once: it cannot be retrieved later. Keep it on your server only.',
    }),
  }),
);

// The values the service supports. On the two endpoints they document the parameters without
// being enforced by validation: anything else is refused the RFC's way (a redirect with
// `unsupported_response_type`, a body with `unsupported_grant_type`), not as a generic 400.
export const OAuthResponseType = named(
  'OAuthResponseType',
  stringEnum(['code'], { description: 'Authorization code (RFC 6749 4.1); the only flow offered' }),
);
export const OAuthGrantType = named(
  'OAuthGrantType',
  stringEnum(['authorization_code', 'refresh_token'], { description: 'RFC 6749 4.1.3 and 6' }),
);
export const OAuthCodeChallengeMethod = named(
  'OAuthCodeChallengeMethod',
  stringEnum(['S256'], { description: 'PKCE (RFC 7636): S256 only; plain is refused' }),
);
export const OAuthClientAuthMethod = named(
  'OAuthClientAuthMethod',
  stringEnum(['client_secret_basic', 'client_secret_post'], {
    description: 'How the app sends its client secret to the token endpoint',
  }),
);

const Field = (description: string) => Type.Optional(Type.String({ maxLength: 4000, description }));

/** One of the supported values, or any other string the endpoint refuses in the RFC's form. */
const OpenEnum = (values: ReturnType<typeof stringEnum>, description: string) =>
  Type.Optional(Type.Union([values, Type.String({ maxLength: 4000 })], { description }));

/** GET /oauth/authorize: the authorization request (RFC 6749 4.1.1, RFC 7636). */
export const AuthorizeQuery = named(
  'OAuthAuthorizeRequest',
  Type.Object(
    {
      response_type: OpenEnum(OAuthResponseType, 'code (anything else: `unsupported_response_type`)'),
      client_id: Field("The app's client id"),
      redirect_uri: Field('One of the app’s registered addresses, exactly'),
      scope: Field('Space-separated scopes (GET /api-scopes)'),
      state: Field('Echoed back unchanged'),
      code_challenge: Field('PKCE: base64url SHA-256 of the code verifier'),
      code_challenge_method: OpenEnum(OAuthCodeChallengeMethod, 'PKCE: S256 (plain is refused)'),
    },
    {
      additionalProperties: true,
      description: 'Parameters the service does not know are ignored (RFC 6749 3.1).',
    },
  ),
);

/** POST /oauth/authorize: the sign-in page's form (the request again, credentials, ticks). */
export const AuthorizeForm = named(
  'OAuthAuthorizeForm',
  Type.Object(
    {
      ...AuthorizeQuery.properties,
      email: Field('Sign-in e-mail'),
      password: Field('The password as typed (the page sends it over TLS; the server hashes it)'),
      totp_code: Field('Authenticator or recovery code, on the second-factor step'),
      pending: Field('The signed state of a sign-in waiting for its second factor'),
      action: OpenEnum(stringEnum(['allow', 'deny']), 'allow, or anything else to deny'),
    },
    {
      additionalProperties: true,
      description:
        'Scopes left ticked arrive as fields `grant.<scope>`; other fields the service does not know are ignored.',
    },
  ),
);

/** POST /oauth/token (RFC 6749 4.1.3 and 6), form-encoded. */
export const TokenForm = named(
  'OAuthTokenRequest',
  Type.Object(
    {
      grant_type: OpenEnum(
        OAuthGrantType,
        'authorization_code or refresh_token (else `unsupported_grant_type`)',
      ),
      code: Field('The code from the redirect (authorization_code)'),
      redirect_uri: Field('The same redirect_uri as in the authorization request (authorization_code)'),
      code_verifier: Field('PKCE verifier, when the request carried a code_challenge'),
      refresh_token: Field('refresh_token grant'),
      client_id: Field('Or in HTTP Basic authentication'),
      client_secret: Field('Or in HTTP Basic authentication; always required'),
      scope: Field('Ignored: a connection keeps the scopes the person left ticked'),
    },
    {
      additionalProperties: true,
      description: 'Parameters the service does not know are ignored (RFC 6749 3.2).',
    },
  ),
);

export const TokenResponse = named(
  'OAuthTokenResponse',
  Type.Object({
    access_token: Type.String({ description: 'Send as Authorization: Bearer on /api calls' }),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'Seconds: 3600' }),
    refresh_token: Type.String({ description: 'Single use: each refresh answers a new one' }),
    scope: Type.String({ description: 'The scopes the person left ticked, space-separated' }),
  }),
);

/** Authorization server metadata (RFC 8414). */
export const ServerMetadata = named(
  'OAuthServerMetadata',
  Type.Object({
    issuer: Type.String(),
    authorization_endpoint: Type.String(),
    token_endpoint: Type.String(),
    response_types_supported: Type.Array(OAuthResponseType),
    grant_types_supported: Type.Array(OAuthGrantType),
    code_challenge_methods_supported: Type.Array(OAuthCodeChallengeMethod),
    token_endpoint_auth_methods_supported: Type.Array(OAuthClientAuthMethod),
    scopes_supported: Type.Array(Type.String()),
  }),
);
