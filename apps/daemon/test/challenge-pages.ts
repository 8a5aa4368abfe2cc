import type { InlinePage } from '@argus/test-kit';

// Pages for challenge detection: one per kind the detector names, and the look-alikes it must not
// flag (an invisible reCAPTCHA v3 badge, a small cookie bar, a hidden header login, a forum page
// with a sidebar login). Third-party widgets cannot load on this closed network (dead proxy), so
// each page carries the widget's markup as its vendor's loader leaves it in the DOM.

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

const article = Array.from(
  { length: 12 },
  (_, i) =>
    `<p>Paragraph ${i + 1} of an ordinary article about gardening, with enough words to make the page a page of reading and not a form: soil, water, light, patience and the seasons all matter to what grows.</p>`,
).join('');
const nav = Array.from({ length: 12 }, (_, i) => `<a href="/a${i}">Section ${i}</a>`).join(' ');

const loginForm = `<form action="/session" method="post"><label>Email <input type="email" name="email"></label>
  <label>Password <input type="password" name="password"></label><button>Sign in</button></form>`;

export const challengePages: Record<string, InlinePage> = {
  '/login-wall': page(
    'Sign in',
    `<main><h1>Sign in to continue</h1>${loginForm}<a href="/reset">Forgot password?</a></main>`,
  ),
  '/login-modal': page(
    'Article',
    `<nav>${nav}</nav><article>${article}${article}</article>
     <div role="dialog" aria-modal="true" style="position:fixed;inset:20% 30%;background:#fff;border:1px solid">${loginForm}</div>`,
  ),
  // a forum page with a sidebar login: ordinary at 200, a login wall when the server says 401
  '/forum': page('Forum', `<nav>${nav}</nav><aside>${loginForm}</aside><article>${article}</article>`),
  '/forum-401': () => ({
    status: 401,
    body: page('Forum', `<nav>${nav}</nav><aside>${loginForm}</aside><article>${article}</article>`),
  }),
  '/header-login-hidden': page(
    'News',
    `<header>${nav}<div id="drop" style="display:none">${loginForm}</div></header><article>${article}</article>`,
  ),
  '/recaptcha': page(
    'Contact',
    `<form><textarea></textarea><div class="g-recaptcha" data-sitekey="x"><div style="width:304px;height:78px">
     <iframe title="reCAPTCHA" width="304" height="78" src="https://www.google.com/recaptcha/api2/anchor?ar=1&k=x&size=normal"></iframe></div></div></form>`,
  ),
  '/recaptcha-v3': page(
    'Shop',
    `<nav>${nav}</nav><article>${article}</article><div class="grecaptcha-badge" style="width:256px;height:60px;position:fixed;bottom:14px;right:-186px">
     <iframe title="reCAPTCHA" width="256" height="60" src="https://www.google.com/recaptcha/api2/anchor?ar=1&k=x&size=invisible"></iframe></div>`,
    '<script src="https://www.google.com/recaptcha/api.js?render=x"></script>',
  ),
  '/hcaptcha': page(
    'Register',
    `<div class="h-captcha" data-sitekey="x"><iframe title="hCaptcha" width="303" height="78"
     src="https://newassets.hcaptcha.com/captcha/v1/abc/static/hcaptcha.html#frame=checkbox"></iframe></div>`,
  ),
  '/turnstile': page('Login', `<div class="cf-turnstile" data-sitekey="x" style="width:300px;height:65px"></div>`),
  '/cf-interstitial': () => ({
    status: 403,
    body: page(
      'Just a moment...',
      `<div class="main-wrapper"><h1>example.com</h1><h2 id="challenge-running">Checking if the site connection is secure</h2>
       <form id="challenge-form" action="/?__cf_chl_f_tk=x" method="POST"></form></div>`,
      '<script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script>',
    ),
  }),
  '/consent-wall': page(
    'Daily',
    `<article>${article}</article><div id="onetrust-consent-sdk"><div class="onetrust-pc-dark-filter" style="position:fixed;inset:0;background:#0008"></div>
     <div id="onetrust-banner-sdk" role="dialog" style="position:fixed;inset:15% 10%;background:#fff">We value your privacy
     <button id="onetrust-accept-btn-handler">Accept all</button></div></div>`,
    '<style>html,body{overflow:hidden}</style>',
  ),
  // a small consent box over a page that no longer scrolls: a wall; the same box over a scrolling page is a bar
  '/consent-locked': page(
    'Daily',
    `<article>${article}</article><div id="didomi-notice" style="position:fixed;left:0;right:0;bottom:0;height:22vh;background:#fff">
     We and our partners use cookies. <button>Agree</button></div>`,
    '<style>html,body{overflow:hidden}</style>',
  ),
  '/consent-small': page(
    'Daily',
    `<article>${article}</article><div id="didomi-notice" style="position:fixed;left:0;right:0;bottom:0;height:22vh;background:#fff">
     We and our partners use cookies. <button>Agree</button></div>`,
  ),
  // a bot check without Cloudflare's markers: its title and its wording both say so
  '/attention-required': () => ({
    status: 403,
    body: page('Attention Required!', '<h1>One more step</h1><p>Please verify you are a human to continue.</p>'),
  }),
  // that title alone is an error page, not a check
  '/access-denied': () => ({
    status: 403,
    body: page('Access denied', '<h1>Access denied</h1><p>You do not have permission to view this page.</p>'),
  }),
  '/cookie-bar': page(
    'Blog',
    `<nav>${nav}</nav><article>${article}</article><div id="CybotCookiebotDialog" style="position:fixed;left:0;right:0;bottom:0;height:60px;background:#eee">
     We use cookies. <button>OK</button></div>`,
  ),
  // a sign-up form has a password field too, and many more: the agent fills it, no person needed
  '/signup': page(
    'Sign up',
    `<h1>Create your account</h1><form><label>Name <input name="name"></label><label>Email <input type="email" name="email"></label>
     <label>Password <input type="password" name="password"></label><label>Bio <textarea name="bio"></textarea></label>
     <label>Country <select name="country"><option>France</option></select></label><button>Sign up</button></form>`,
  ),
  '/goes-to-login': page('Home', `<a id="go" href="/login-wall">Account</a>`),
  // email-first sign-in, Google style: no <form>, scripted buttons, the password on the next step
  '/login-email-first': page(
    'Sign in - Accounts',
    `<div class="card"><h1>Sign in</h1><div>to continue to Mail</div>
     <div><div><input type="email" id="identifierId" name="identifier" autocomplete="username webauthn" aria-label="Email or phone"></div>
     <a href="/forgot">Forgot email?</a></div><p>Not your computer? Use Guest mode to sign in privately.</p>
     <div><div role="button" tabindex="0">Create account</div><button type="button">Next</button></div></div>`,
  ),
  // email-first sign-in, Microsoft style: a form with one name field and a Next submit
  '/login-email-first-form': page(
    'Sign in to your account',
    `<form method="post" action="/login"><div role="heading">Sign in</div>
     <input type="email" name="loginfmt" placeholder="Email, phone, or Skype">
     <p>No account? <a href="/signup">Create one!</a></p><input type="submit" value="Next"></form>`,
  ),
  // look-alikes: a newsletter box in an article, a newsletter page with a Continue button, a search page
  '/newsletter': page(
    'Garden news',
    `<nav>${nav}</nav><article>${article}</article><aside><h2>Sign up for our newsletter</h2>
     <form action="/subscribe"><input type="email" name="email" placeholder="you@example.com"><button>Subscribe</button></form></aside>`,
  ),
  '/newsletter-landing': page(
    'Weekly digest',
    `<main><h1>Get the weekly digest</h1><p>One email a week, no spam.</p>
     <form action="/subscribe"><input type="email" name="email" aria-label="Email"><button>Continue</button></form></main>`,
  ),
};
