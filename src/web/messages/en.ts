/**
 * The English catalogue: every sentence the package's pages and refusals show a person. The
 * other catalogues have exactly these keys (a test checks it); `{name}` marks a value filled in
 * when the page is drawn.
 */
export const en = {
  // The approval page, on the device where the link opened (the phone).
  'approval.title': 'Approve sign-in on your computer?',
  'approval.asked': '{device} asked to sign in {when}.',
  'approval.device': '{browser} on {os}',
  'approval.deviceUnknown': 'A browser',
  'approval.justNow': 'just now',
  'approval.minuteAgo': 'a minute ago',
  'approval.minutesAgo': '{count} minutes ago',
  'approval.instructions':
    'Type the number shown on that screen to sign it in. If you did not ask to sign in, press “{deny}”.',
  'approval.numberLabel': 'Number shown on your computer',
  'approval.approve': 'Approve',
  'approval.deny': 'This wasn’t me',
  'approval.numberMissing': 'Type the two-digit number shown on your computer, then press “{approve}”.',
  // How the approval ended.
  'outcome.approved.title': 'You are signed in on your computer',
  'outcome.approved.text': 'You can close this tab and go back to your computer.',
  'outcome.wrongNumber.title': 'Sign-in cancelled',
  'outcome.wrongNumber.text':
    'The number did not match, so nobody was signed in. If it was you, ask for a new link on your computer.',
  'outcome.denied.title': 'Sign-in cancelled',
  'outcome.denied.text':
    'Nobody was signed in. If you did not ask for this link, you can ignore it: your account is safe.',
  'outcome.rejected.title': 'This link cannot be used',
  'outcome.rejected.text': 'It is invalid, has expired or was already used. Ask for a new link on your computer.',
  'outcome.gone.title': 'This sign-in request is over',
  'outcome.gone.text':
    'It has expired, or was already approved or cancelled. Ask for a new link on your computer if you need one.',
  // The confirm page (`confirm: true`), where the person's press spends the code.
  'confirm.title': 'Confirm sign-in',
  'confirm.text': 'Press the button to finish signing in.',
  'confirm.button': 'Sign in',
  // The sign-in page.
  'signIn.title': 'Sign in',
  'signIn.text.email': 'Enter your e-mail address and we will send you a link to sign in. No password needed.',
  'signIn.text.mobile': 'Enter your mobile number and we will send you a link to sign in. No password needed.',
  'signIn.text.both':
    'Enter your e-mail address or your mobile number and we will send you a link to sign in. No password needed.',
  'signIn.emailLabel': 'E-mail address',
  'signIn.mobileLabel': 'Mobile number',
  'signIn.mobileHint': 'With its country code, such as +1 415 555 0123.',
  'signIn.mobileHintCountry': 'With its country code, or as you would dial it in {country}.',
  'signIn.or': 'or',
  'signIn.channelLegend': 'Send the link to the mobile by',
  'signIn.whatsapp': 'WhatsApp',
  'signIn.sms': 'SMS',
  'signIn.button': 'Send me a sign-in link',
  // The waiting page, in the browser that asked for the link.
  'waiting.title.pending': 'Check your messages',
  'waiting.title.approved': 'Sign-in approved',
  'waiting.title.over': 'This sign-in was not completed',
  'waiting.sentTo': 'We sent a sign-in link to {to}.',
  'waiting.sent': 'We sent you a sign-in link.',
  'waiting.open': 'Open it in this browser, or on your phone. The link works once.',
  'waiting.matchLabel': 'Opening the link on another device? It will ask for this number',
  'waiting.matchNote':
    'Do not reply to the message with it: type it only on the page the link opens. This page then signs you in by itself.',
  'waiting.status.pending': 'Waiting for you to open the link…',
  'waiting.status.approved': 'Approved. Signing you in…',
  'waiting.status.denied': 'The sign-in was cancelled on the other device. Nobody was signed in.',
  'waiting.status.expired': 'The link expired before it was used. Nobody was signed in.',
  'waiting.status.none': 'No sign-in is waiting in this browser.',
  'waiting.expiresIn': 'The link expires in {time}.',
  'waiting.continue': 'I’ve approved it: continue',
  'waiting.resend': 'Send the link again',
  'waiting.resendIn': 'You can ask for another link in {time}.',
  'waiting.wrong': 'Wrong address, or nothing arrived?',
  // The waiting page: the channel the link went by, its app, and another way to get it.
  'waiting.sentBy.WHATSAPP': 'We sent a sign-in link to {to} by WhatsApp.',
  'waiting.sentBy.SMS': 'We sent a sign-in link to {to} by SMS.',
  'waiting.sentBy.EMAIL': 'We sent a sign-in link to {to} by e-mail.',
  'waiting.openApp.WHATSAPP': 'Open WhatsApp',
  'waiting.again': 'Didn’t get it?',
  'waiting.instead.WHATSAPP': 'Send by WhatsApp instead',
  'waiting.instead.SMS': 'Send by SMS instead',
  'waiting.same.WHATSAPP': 'Send by WhatsApp again',
  'waiting.same.SMS': 'Send by SMS again',
  // The error page of a used or expired link, in the browser that asked for it.
  'error.sendNew': 'Send a new link',
  'error.sendNewTo': 'We can send a new link to {to}.',
  // The send limits' refusals: what was refused, then when to try again.
  'limit.ip': 'Too many sign-in links were asked for from this network.',
  'limit.email': 'Too many sign-in links were sent to this e-mail address.',
  'limit.mobile': 'Too many sign-in links were sent to this mobile number.',
  'limit.tryAgain': 'Try again in {time}.',
  // The error page of a failed callback.
  'error.title': 'This sign-in did not work',
  'error.next': 'Start again to get a new sign-in link, and open it in the browser where you asked for it.',
  'error.code': 'Error code: {code}',
  'error.service': 'Signing in is not possible right now. Please try again in a moment.',
  'error.unknown': 'Something went wrong while signing you in.',
  'pages.startAgain': 'Start again',
  // The guards' refusal pages.
  'guard.UNAUTHENTICATED.title': 'Please sign in',
  'guard.UNAUTHENTICATED.text': 'You need to sign in to see this page.',
  'guard.RISK_CHALLENGE.title': 'Please confirm it is you',
  'guard.RISK_CHALLENGE.text':
    'We could not confirm that this sign-in is safe enough for this page. Sign in again from your usual device and network to continue.',
  'guard.RISK_BLOCKED.title': 'This page is not available',
  'guard.RISK_BLOCKED.text':
    'For your security this page cannot be opened from this sign-in. If you think this is a mistake, contact support.',
  'guard.IDENTITY_REQUIRED.title': 'Verification needed',
  'guard.IDENTITY_REQUIRED.text':
    'This page needs a verified contact you have not confirmed yet. Sign in with it to continue.',
  'guard.SESSION_ENDED.title': 'Please sign in again',
  'guard.SESSION_ENDED.text': 'Your sign-in has ended. Sign in again to see this page.',
  'guard.signIn': 'Sign in',
  // The callback's refusals, as the app's failure handling shows them: CALLBACK_FAILURES reads its
  // English here (src/login/failures.ts).
  'failure.INVALID_CODE':
    'This sign-in link is incomplete or not valid. Open the link from your message again, or ask for a new one.',
  'failure.CODE_REJECTED': 'This sign-in link is invalid, has expired or was already used. Ask for a new one.',
  'failure.TOKEN_REJECTED': 'Your sign-in could not be confirmed. Please sign in again.',
  'failure.NO_VERIFIED_IDENTITY': 'Your e-mail address or mobile number could not be confirmed. Ask for a new link.',
  'failure.WRONG_BROWSER':
    'This sign-in link cannot be used here: it was already used, or it was opened in another browser than the one where you asked for it. Ask for a new link in this browser.',
  'failure.CROSS_SITE': 'This sign-in request did not come from this site.',
  'failure.FLOW_PENDING':
    'The sign-in has not been approved yet. Open the link on your phone and type the number shown here.',
  'failure.FLOW_DENIED': 'This sign-in was cancelled on the other device. Ask for a new link if you want to sign in.',
  'failure.FLOW_EXPIRED': 'This sign-in request has expired or was already used. Ask for a new link.',
  'failure.USER_REFUSED': 'Sign-in was refused.',
  // The send route's refusals of what the person typed.
  'send.none': 'Enter an e-mail address or a mobile number.',
  'send.email': 'Enter a valid e-mail address, such as name@example.com.',
  'send.mobile': 'Enter a valid mobile number with its country code, such as +14155550123.',
  'send.service': 'The sign-in link could not be sent right now. Please try again in a moment.',
  'send.space': 'Enter the e-mail address without spaces, such as name@example.com.',
  'send.twoContacts':
    'Enter one e-mail address only: this field holds more than one contact. Give the mobile number in its own field, or use one of them.',
  'send.hidden': 'Enter the e-mail address again, typed rather than pasted: it contains invisible characters.',
  'send.lookalike':
    'Enter the e-mail address again: it contains look-alike characters (full-width letters, or letters of different alphabets).',
  'send.international': 'Enter the e-mail address in plain letters (a-z, digits, dots), such as name@example.com.',
  'send.phoneFormat': 'Enter the mobile number in digits, such as +14155550123 (spaces, dashes and brackets are fine).',
  'send.phoneCountryCode':
    'Enter the mobile number with its country code: add + and the code first, such as +1 415 555 0123.',
  'send.phoneInvalid':
    'Enter a valid mobile number: this one has too many or too few digits for its country, or is not in use.',
  'send.phoneKind': 'Enter a mobile number: premium-rate, toll-free and shared-cost numbers cannot get sign-in links.',
  'send.channel': 'Choose WhatsApp or SMS.',
  'send.botCheck': 'Please confirm you are a person (the check below), then send again.',
  'send.botCheckUnavailable': 'We could not check that you are a person right now. Please try again in a moment.',
  // Passkeys (the mount's `passkeys` option): the offer after a link login, the sign-in button, refusals.
  'passkey.offer.title': 'Sign in faster next time',
  'passkey.offer.text':
    'Sign in faster next time: use a passkey on this device. Your fingerprint, face or screen lock signs you in, and no message is sent.',
  'passkey.offer.button': 'Use a passkey on this device',
  'passkey.offer.notNow': 'Not now',
  'passkey.signIn.button': 'Sign in with a passkey',
  'passkey.working': 'Waiting for your device…',
  'passkey.done': 'Passkey saved.',
  'passkey.cancelled': 'The passkey was not used. You can try again, or ask for a sign-in link.',
  'passkey.failed': 'That did not work. You can try again, or ask for a sign-in link.',
  'passkey.PASSKEY_NOT_ALLOWED':
    'A passkey can be added only right after signing in with a link, in the same browser. Sign in with a link, then add it.',
  'passkey.PASSKEY_CHALLENGE_EXPIRED': 'This request has expired. Please try again, or ask for a sign-in link.',
  'passkey.PASSKEY_UNKNOWN':
    'This passkey is not known here (it may have been removed). Ask for a sign-in link instead.',
  'passkey.PASSKEY_WRONG_ORIGIN': 'This passkey answer was made for another site. Ask for a sign-in link instead.',
  'passkey.PASSKEY_COUNTER_BACKWARDS': 'This passkey could not be trusted. Ask for a sign-in link instead.',
  'passkey.PASSKEY_INVALID': 'The passkey could not be checked. Please try again, or ask for a sign-in link.',
  'guard.PASSKEY_NOT_ACCEPTED.title': 'Please sign in with a link',
  'guard.PASSKEY_NOT_ACCEPTED.text':
    'This page needs a sign-in by link: a passkey sign-in does not carry the checks this page relies on. Sign in with a link to continue.',
} as const;

/** The key of one message of the catalogue. */
export type MessageKey = keyof typeof en;

/** A complete catalogue: one sentence for every key. */
export type Messages = Record<MessageKey, string>;
