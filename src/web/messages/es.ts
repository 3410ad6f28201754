import type { Messages } from './en.js';

/** Spanish (español): neutral Latin American usage ("tú", "computadora"), as most readers expect. */
export const es: Messages = {
  'approval.title': '¿Aprobar el inicio de sesión en tu computadora?',
  'approval.asked': '{device} pidió iniciar sesión {when}.',
  'approval.device': '{browser} en {os}',
  'approval.deviceUnknown': 'Un navegador',
  'approval.justNow': 'hace un momento',
  'approval.minuteAgo': 'hace un minuto',
  'approval.minutesAgo': 'hace {count} minutos',
  'approval.instructions':
    'Escribe el número que aparece en esa pantalla para iniciar sesión allí. Si no pediste iniciar sesión, presiona “{deny}”.',
  'approval.numberLabel': 'Número que aparece en tu computadora',
  'approval.approve': 'Aprobar',
  'approval.deny': 'No fui yo',
  'approval.numberMissing':
    'Escribe el número de dos dígitos que aparece en tu computadora y luego presiona “{approve}”.',
  'outcome.approved.title': 'Ya iniciaste sesión en tu computadora',
  'outcome.approved.text': 'Puedes cerrar esta pestaña y volver a tu computadora.',
  'outcome.wrongNumber.title': 'Inicio de sesión cancelado',
  'outcome.wrongNumber.text':
    'El número no coincidía, así que no se inició ninguna sesión. Si eras tú, pide un enlace nuevo en tu computadora.',
  'outcome.denied.title': 'Inicio de sesión cancelado',
  'outcome.denied.text':
    'No se inició ninguna sesión. Si no pediste este enlace, puedes ignorarlo: tu cuenta está segura.',
  'outcome.rejected.title': 'Este enlace no se puede usar',
  'outcome.rejected.text': 'No es válido, ya venció o ya se usó. Pide un enlace nuevo en tu computadora.',
  'outcome.gone.title': 'Esta solicitud de inicio de sesión ya terminó',
  'outcome.gone.text': 'Venció, o ya se aprobó o se canceló. Si lo necesitas, pide un enlace nuevo en tu computadora.',
  'confirm.title': 'Confirmar inicio de sesión',
  'confirm.text': 'Presiona el botón para terminar de iniciar sesión.',
  'confirm.button': 'Iniciar sesión',
  // The sign-in page.
  'signIn.title': 'Iniciar sesión',
  'signIn.text.email':
    'Escribe tu correo electrónico y te enviaremos un enlace para iniciar sesión. No necesitas contraseña.',
  'signIn.text.mobile':
    'Escribe tu número de celular y te enviaremos un enlace para iniciar sesión. No necesitas contraseña.',
  'signIn.text.both':
    'Escribe tu correo electrónico o tu número de celular y te enviaremos un enlace para iniciar sesión. No necesitas contraseña.',
  'signIn.emailLabel': 'Correo electrónico',
  'signIn.mobileLabel': 'Número de celular',
  'signIn.mobileHint': 'Con su código de país, como +52 55 1234 5678.',
  'signIn.mobileHintCountry': 'Con su código de país, o como lo marcarías en {country}.',
  'signIn.or': 'o',
  'signIn.channelLegend': 'Enviar el enlace al celular por',
  'signIn.whatsapp': 'WhatsApp',
  'signIn.sms': 'SMS',
  'signIn.button': 'Enviarme un enlace de inicio de sesión',
  // The waiting page, in the browser that asked for the link.
  'waiting.title.pending': 'Revisa tus mensajes',
  'waiting.title.approved': 'Inicio de sesión aprobado',
  'waiting.title.over': 'Este inicio de sesión no se completó',
  'waiting.sentTo': 'Enviamos un enlace de inicio de sesión a {to}.',
  'waiting.sent': 'Te enviamos un enlace de inicio de sesión.',
  'waiting.open': 'Ábrelo en este navegador o en tu teléfono. El enlace funciona una sola vez.',
  'waiting.matchLabel': '¿Abres el enlace en otro dispositivo? Te pedirá este número',
  'waiting.matchNote':
    'No respondas al mensaje con él: escríbelo solo en la página que abre el enlace. Después, esta página iniciará tu sesión sola.',
  'waiting.status.pending': 'Esperando a que abras el enlace…',
  'waiting.status.approved': 'Aprobado. Iniciando tu sesión…',
  'waiting.status.denied': 'El inicio de sesión se canceló en el otro dispositivo. No se inició ninguna sesión.',
  'waiting.status.expired': 'El enlace venció antes de usarse. No se inició ninguna sesión.',
  'waiting.status.none': 'No hay ningún inicio de sesión pendiente en este navegador.',
  'waiting.expiresIn': 'El enlace vence en {time}.',
  'waiting.continue': 'Ya lo aprobé: continuar',
  'waiting.resend': 'Enviar el enlace otra vez',
  'waiting.resendIn': 'Podrás pedir otro enlace en {time}.',
  'waiting.wrong': '¿Dirección equivocada o no te llegó nada?',
  // The waiting page: the channel the link went by, its app, and another way to get it.
  'waiting.sentBy.WHATSAPP': 'Enviamos un enlace de inicio de sesión a {to} por WhatsApp.',
  'waiting.sentBy.SMS': 'Enviamos un enlace de inicio de sesión a {to} por SMS.',
  'waiting.sentBy.EMAIL': 'Enviamos un enlace de inicio de sesión a {to} por correo electrónico.',
  'waiting.openApp.WHATSAPP': 'Abrir WhatsApp',
  'waiting.again': '¿No te llegó?',
  'waiting.instead.WHATSAPP': 'Enviar por WhatsApp en su lugar',
  'waiting.instead.SMS': 'Enviar por SMS en su lugar',
  'waiting.same.WHATSAPP': 'Enviar otra vez por WhatsApp',
  'waiting.same.SMS': 'Enviar otra vez por SMS',
  // The error page of a used or expired link, in the browser that asked for it.
  'error.sendNew': 'Enviar un enlace nuevo',
  'error.sendNewTo': 'Podemos enviar un enlace nuevo a {to}.',
  // The send limits' refusals: what was refused, then when to try again.
  'limit.ip': 'Se pidieron demasiados enlaces de inicio de sesión desde esta red.',
  'limit.email': 'Se enviaron demasiados enlaces de inicio de sesión a este correo electrónico.',
  'limit.mobile': 'Se enviaron demasiados enlaces de inicio de sesión a este número de móvil.',
  'limit.tryAgain': 'Vuelve a intentarlo en {time}.',
  // The error page of a link that did not work.
  'error.title': 'Este inicio de sesión no funcionó',
  'error.next': 'Vuelve a empezar para recibir un enlace nuevo, y ábrelo en el navegador donde lo pediste.',
  'error.code': 'Código de error: {code}',
  'error.service': 'No es posible iniciar sesión en este momento. Inténtalo de nuevo en un rato.',
  'error.unknown': 'Algo salió mal al iniciar tu sesión.',
  'pages.startAgain': 'Empezar de nuevo',
  'guard.UNAUTHENTICATED.title': 'Inicia sesión',
  'guard.UNAUTHENTICATED.text': 'Tienes que iniciar sesión para ver esta página.',
  'guard.RISK_CHALLENGE.title': 'Confirma que eres tú',
  'guard.RISK_CHALLENGE.text':
    'No pudimos confirmar que este inicio de sesión sea lo bastante seguro para esta página. Para continuar, vuelve a iniciar sesión desde tu dispositivo y tu red de siempre.',
  'guard.RISK_BLOCKED.title': 'Esta página no está disponible',
  'guard.RISK_BLOCKED.text':
    'Por tu seguridad, esta página no se puede abrir con este inicio de sesión. Si crees que es un error, comunícate con soporte.',
  'guard.IDENTITY_REQUIRED.title': 'Se necesita una verificación',
  'guard.IDENTITY_REQUIRED.text':
    'Esta página requiere un contacto verificado que todavía no confirmaste. Inicia sesión con él para continuar.',
  'guard.SESSION_ENDED.title': 'Vuelve a iniciar sesión',
  'guard.SESSION_ENDED.text': 'Tu sesión ha terminado. Vuelve a iniciar sesión para ver esta página.',
  'guard.signIn': 'Iniciar sesión',
  // The callback's refusals (CALLBACK_FAILURES), as the app's failure handling shows them.
  'failure.INVALID_CODE':
    'Este enlace de inicio de sesión está incompleto o no es válido. Vuelve a abrir el enlace de tu mensaje o pide uno nuevo.',
  'failure.CODE_REJECTED': 'Este enlace de inicio de sesión no es válido, ya venció o ya se usó. Pide uno nuevo.',
  'failure.TOKEN_REJECTED': 'No pudimos confirmar tu inicio de sesión. Vuelve a iniciar sesión.',
  'failure.NO_VERIFIED_IDENTITY':
    'No pudimos confirmar tu correo electrónico ni tu número de celular. Pide un enlace nuevo.',
  'failure.WRONG_BROWSER':
    'Este enlace de inicio de sesión no se puede usar aquí: ya se usó, o se abrió en un navegador distinto del que usaste para pedirlo. Pide un enlace nuevo en este navegador.',
  'failure.CROSS_SITE': 'Esta solicitud de inicio de sesión no vino de este sitio.',
  'failure.FLOW_PENDING':
    'Todavía no se aprobó el inicio de sesión. Abre el enlace en tu celular y escribe el número que aparece aquí.',
  'failure.FLOW_DENIED':
    'Este inicio de sesión se canceló en el otro dispositivo. Pide un enlace nuevo si quieres iniciar sesión.',
  'failure.FLOW_EXPIRED': 'Esta solicitud de inicio de sesión venció o ya se usó. Pide un enlace nuevo.',
  'failure.USER_REFUSED': 'Se rechazó el inicio de sesión.',
  // The send route's refusals of what the person typed.
  'send.none': 'Escribe un correo electrónico o un número de celular.',
  'send.email': 'Escribe un correo electrónico válido, como nombre@example.com.',
  'send.mobile': 'Escribe un número de celular válido con su código de país, como +525512345678.',
  'send.service': 'No pudimos enviar el enlace de inicio de sesión en este momento. Inténtalo de nuevo en un rato.',
  'send.space': 'Escribe el correo electrónico sin espacios, como nombre@example.com.',
  'send.twoContacts':
    'Escribe un solo correo electrónico: este campo tiene más de un contacto. Pon el número de celular en su propio campo o usa solo uno de los dos.',
  'send.hidden': 'Vuelve a escribir el correo electrónico a mano, sin pegarlo: contiene caracteres invisibles.',
  'send.lookalike':
    'Vuelve a escribir el correo electrónico: contiene caracteres que se parecen a otros (letras de ancho completo o de alfabetos distintos).',
  'send.international':
    'Escribe el correo electrónico con letras simples (a-z, números y puntos), como nombre@example.com.',
  'send.phoneFormat':
    'Escribe el número de celular con dígitos, como +525512345678 (puedes usar espacios, guiones y paréntesis).',
  'send.phoneCountryCode':
    'Escribe el número de celular con su código de país: agrega + y el código al principio, como +52 55 1234 5678.',
  'send.phoneInvalid':
    'Escribe un número de celular válido: este tiene demasiados o muy pocos dígitos para su país, o no está en uso.',
  'send.phoneKind':
    'Escribe un número de celular: los números de tarificación especial, gratuitos y de costo compartido no pueden recibir enlaces de inicio de sesión.',
  'send.channel': 'Elige WhatsApp o SMS.',
  'send.botCheck': 'Confirma que eres una persona (la comprobación de abajo) y vuelve a enviar.',
  'send.botCheckUnavailable': 'No pudimos comprobar ahora que eres una persona. Inténtalo de nuevo en un momento.',
  // Passkeys (the mount's `passkeys` option): the offer after a link login, the sign-in button, refusals.
  'passkey.offer.title': 'Inicia sesión más rápido la próxima vez',
  'passkey.offer.text':
    'Inicia sesión más rápido la próxima vez: usa una llave de acceso en este dispositivo. Tu huella, tu rostro o el bloqueo de pantalla te dan acceso, y no se envía ningún mensaje.',
  'passkey.offer.button': 'Usar una llave de acceso en este dispositivo',
  'passkey.offer.notNow': 'Ahora no',
  'passkey.signIn.button': 'Iniciar sesión con una llave de acceso',
  'passkey.working': 'Esperando a tu dispositivo…',
  'passkey.done': 'Llave de acceso guardada.',
  'passkey.cancelled':
    'No se usó la llave de acceso. Puedes intentarlo de nuevo o pedir un enlace de inicio de sesión.',
  'passkey.failed': 'No funcionó. Puedes intentarlo de nuevo o pedir un enlace de inicio de sesión.',
  'passkey.PASSKEY_NOT_ALLOWED':
    'Solo puedes agregar una llave de acceso justo después de iniciar sesión con un enlace, en el mismo navegador. Inicia sesión con un enlace y luego agrégala.',
  'passkey.PASSKEY_CHALLENGE_EXPIRED':
    'Esta solicitud venció. Inténtalo de nuevo o pide un enlace de inicio de sesión.',
  'passkey.PASSKEY_UNKNOWN':
    'Esta llave de acceso no se conoce aquí (tal vez se eliminó). Pide un enlace de inicio de sesión.',
  'passkey.PASSKEY_WRONG_ORIGIN':
    'Esta respuesta de la llave de acceso se hizo para otro sitio. Pide un enlace de inicio de sesión.',
  'passkey.PASSKEY_COUNTER_BACKWARDS':
    'No se pudo confiar en esta llave de acceso. Pide un enlace de inicio de sesión.',
  'passkey.PASSKEY_INVALID':
    'No se pudo comprobar la llave de acceso. Inténtalo de nuevo o pide un enlace de inicio de sesión.',
  'guard.PASSKEY_NOT_ACCEPTED.title': 'Inicia sesión con un enlace',
  'guard.PASSKEY_NOT_ACCEPTED.text':
    'Esta página necesita un inicio de sesión con enlace: un inicio con llave de acceso no trae las comprobaciones que esta página usa. Inicia sesión con un enlace para continuar.',
};
