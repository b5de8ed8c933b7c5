// Sign-in page of the API playground. It signs in through the public API and hands the
// access token to the Scalar console through Scalar's persisted authentication, which the
// console reads from localStorage (persistAuth) when it opens.
(() => {
  const SCALAR_AUTH_KEY = 'scalar-reference-auth-__DOCUMENT_SLUG__';
  const COMPANY_KEY = '__COMPANY_KEY__';
  const WHO_KEY = 'bp-playground-signed-in';

  const $ = (id) => document.getElementById(id);
  const form = $('sign-in');
  const signedIn = $('signed-in');
  const message = $('message');
  const companySelect = $('company');

  function say(text) {
    message.textContent = text ?? '';
  }

  async function sha256Hex(text) {
    if (!globalThis.crypto?.subtle) {
      throw new Error('This page must be opened over https (or on localhost) to hash the password.');
    }
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  }

  // Scalar's stored shape: the secret of each security scheme, and which scheme is selected.
  function giveTokenToScalar(token) {
    const auth = {
      secrets: {
        bearerAuth: {
          type: 'http',
          'x-scalar-secret-token': token,
          'x-scalar-secret-username': '',
          'x-scalar-secret-password': '',
        },
      },
      selected: { document: { selectedIndex: 0, selectedSchemes: [{ bearerAuth: [] }] } },
    };
    localStorage.setItem(SCALAR_AUTH_KEY, JSON.stringify(auth));
  }

  function storedToken() {
    try {
      const auth = JSON.parse(localStorage.getItem(SCALAR_AUTH_KEY) ?? '{}');
      return auth.secrets?.bearerAuth?.['x-scalar-secret-token'] || undefined;
    } catch {
      return undefined;
    }
  }

  function signOut() {
    localStorage.removeItem(SCALAR_AUTH_KEY);
    localStorage.removeItem(COMPANY_KEY);
    localStorage.removeItem(WHO_KEY);
    showSignIn();
  }

  function showSignIn() {
    signedIn.hidden = true;
    form.hidden = false;
  }

  async function showSignedIn(token) {
    const res = await fetch('/api/companies', { headers: { authorization: `Bearer ${token}` } });
    if (res.status === 401) {
      signOut();
      say('Your session has ended; sign in again.');
      return;
    }
    if (!res.ok) {
      say(`Could not list your companies (${res.status}).`);
      return;
    }
    const companies = await res.json();
    companySelect.replaceChildren(
      ...companies.map((c) => {
        const option = document.createElement('option');
        option.value = c.id;
        option.textContent = c.name;
        return option;
      }),
    );
    const kept = localStorage.getItem(COMPANY_KEY);
    if (kept && companies.some((c) => c.id === kept)) companySelect.value = kept;
    if (companySelect.value) localStorage.setItem(COMPANY_KEY, companySelect.value);
    else localStorage.removeItem(COMPANY_KEY);
    $('who').textContent = localStorage.getItem(WHO_KEY) ?? 'you';
    form.hidden = true;
    signedIn.hidden = false;
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    say('');
    try {
      const body = {
        email: $('email').value.trim(),
        password: await sha256Hex($('password').value),
      };
      const totp = $('totp').value.trim();
      if (totp) body.totpCode = totp;
      const res = await fetch('/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = await res.json().catch(() => ({}));
      if (!res.ok) {
        if (answer.code === 'TOTP_REQUIRED') {
          $('totp-row').hidden = false;
          $('totp').focus();
        }
        say(answer.detail ?? `Sign-in failed (${res.status}).`);
        return;
      }
      $('password').value = '';
      $('totp').value = '';
      giveTokenToScalar(answer.accessToken);
      localStorage.setItem(WHO_KEY, `${answer.email} (${answer.role}) in ${answer.tenantName}`);
      await showSignedIn(answer.accessToken);
    } catch (e) {
      say(e instanceof Error ? e.message : String(e));
    }
  });

  companySelect.addEventListener('change', () => {
    localStorage.setItem(COMPANY_KEY, companySelect.value);
  });
  $('sign-out').addEventListener('click', signOut);

  const token = storedToken();
  if (token) showSignedIn(token).catch((e) => say(e.message));
  else showSignIn();
})();
