import type { Messages } from './en.js';

/** Brazilian Portuguese (português do Brasil): "você", "login" and "entrar", as Brazilian apps say. */
export const ptBR: Messages = {
  'approval.title': 'Aprovar o login no seu computador?',
  'approval.asked': '{device} pediu para entrar {when}.',
  'approval.device': '{browser} em {os}',
  'approval.deviceUnknown': 'Um navegador',
  'approval.justNow': 'agora mesmo',
  'approval.minuteAgo': 'há um minuto',
  'approval.minutesAgo': 'há {count} minutos',
  'approval.instructions':
    'Digite o número que aparece naquela tela para concluir o login nela. Se não foi você que pediu para entrar, toque em “{deny}”.',
  'approval.numberLabel': 'Número que aparece no seu computador',
  'approval.approve': 'Aprovar',
  'approval.deny': 'Não fui eu',
  'approval.numberMissing': 'Digite o número de dois dígitos que aparece no seu computador e toque em “{approve}”.',
  'outcome.approved.title': 'Você entrou no seu computador',
  'outcome.approved.text': 'Pode fechar esta aba e voltar para o computador.',
  'outcome.wrongNumber.title': 'Login cancelado',
  'outcome.wrongNumber.text':
    'O número não confere, então ninguém entrou. Se foi você, peça um novo link no seu computador.',
  'outcome.denied.title': 'Login cancelado',
  'outcome.denied.text': 'Ninguém entrou. Se você não pediu este link, pode ignorá-lo: sua conta está segura.',
  'outcome.rejected.title': 'Este link não pode ser usado',
  'outcome.rejected.text': 'Ele é inválido, expirou ou já foi usado. Peça um novo link no seu computador.',
  'outcome.gone.title': 'Este pedido de login terminou',
  'outcome.gone.text': 'Ele expirou ou já foi aprovado ou cancelado. Se precisar, peça um novo link no seu computador.',
  'confirm.title': 'Confirmar login',
  'confirm.text': 'Toque no botão para concluir o login.',
  'confirm.button': 'Entrar',
  // The sign-in page.
  'signIn.title': 'Entrar',
  'signIn.text.email': 'Digite seu e-mail e enviaremos um link para você entrar. Não precisa de senha.',
  'signIn.text.mobile': 'Digite seu número de celular e enviaremos um link para você entrar. Não precisa de senha.',
  'signIn.text.both':
    'Digite seu e-mail ou seu número de celular e enviaremos um link para você entrar. Não precisa de senha.',
  'signIn.emailLabel': 'E-mail',
  'signIn.mobileLabel': 'Número de celular',
  'signIn.mobileHint': 'Com o código do país, como +55 11 91234 5678.',
  'signIn.mobileHintCountry': 'Com o código do país, ou como você discaria em {country}.',
  'signIn.or': 'ou',
  'signIn.channelLegend': 'Enviar o link para o celular por',
  'signIn.whatsapp': 'WhatsApp',
  'signIn.sms': 'SMS',
  'signIn.button': 'Enviar link de login',
  // The waiting page, in the browser that asked for the link.
  'waiting.title.pending': 'Confira suas mensagens',
  'waiting.title.approved': 'Login aprovado',
  'waiting.title.over': 'Este login não foi concluído',
  'waiting.sentTo': 'Enviamos um link de login para {to}.',
  'waiting.sent': 'Enviamos um link de login para você.',
  'waiting.open': 'Abra-o neste navegador ou no seu celular. O link só funciona uma vez.',
  'waiting.matchLabel': 'Vai abrir o link em outro dispositivo? Ele vai pedir este número',
  'waiting.matchNote':
    'Não responda à mensagem com ele: digite-o só na página que o link abrir. Depois, esta página faz o seu login sozinha.',
  'waiting.status.pending': 'Aguardando você abrir o link…',
  'waiting.status.approved': 'Aprovado. Fazendo seu login…',
  'waiting.status.denied': 'O login foi cancelado no outro dispositivo. Ninguém entrou.',
  'waiting.status.expired': 'O link expirou antes de ser usado. Ninguém entrou.',
  'waiting.status.none': 'Nenhum login está aguardando neste navegador.',
  'waiting.expiresIn': 'O link expira em {time}.',
  'waiting.continue': 'Já aprovei: continuar',
  'waiting.resend': 'Enviar o link de novo',
  'waiting.resendIn': 'Você pode pedir outro link em {time}.',
  'waiting.wrong': 'Endereço errado ou nada chegou?',
  // The waiting page: the channel the link went by, its app, and another way to get it.
  'waiting.sentBy.WHATSAPP': 'Enviamos um link de login para {to} pelo WhatsApp.',
  'waiting.sentBy.SMS': 'Enviamos um link de login para {to} por SMS.',
  'waiting.sentBy.EMAIL': 'Enviamos um link de login para {to} por e-mail.',
  'waiting.openApp.WHATSAPP': 'Abrir o WhatsApp',
  'waiting.again': 'Não recebeu?',
  'waiting.instead.WHATSAPP': 'Enviar pelo WhatsApp em vez disso',
  'waiting.instead.SMS': 'Enviar por SMS em vez disso',
  'waiting.same.WHATSAPP': 'Enviar de novo pelo WhatsApp',
  'waiting.same.SMS': 'Enviar de novo por SMS',
  // The error page of a used or expired link, in the browser that asked for it.
  'error.sendNew': 'Enviar um novo link',
  'error.sendNewTo': 'Podemos enviar um novo link para {to}.',
  // The send limits' refusals: what was refused, then when to try again.
  'limit.ip': 'Foram pedidos links de login demais a partir desta rede.',
  'limit.email': 'Foram enviados links de login demais para este e-mail.',
  'limit.mobile': 'Foram enviados links de login demais para este número de celular.',
  'limit.tryAgain': 'Tente de novo em {time}.',
  // The error page of a link that did not work.
  'error.title': 'Este login não funcionou',
  'error.next': 'Comece de novo para receber um novo link e abra-o no navegador em que você o pediu.',
  'error.code': 'Código do erro: {code}',
  'error.service': 'Não é possível entrar agora. Tente de novo daqui a pouco.',
  'error.unknown': 'Algo deu errado ao fazer seu login.',
  'pages.startAgain': 'Começar de novo',
  'guard.UNAUTHENTICATED.title': 'Faça login',
  'guard.UNAUTHENTICATED.text': 'Você precisa entrar para ver esta página.',
  'guard.RISK_CHALLENGE.title': 'Confirme que é você',
  'guard.RISK_CHALLENGE.text':
    'Não conseguimos confirmar que este login é seguro o bastante para esta página. Para continuar, entre de novo pelo dispositivo e pela rede que você costuma usar.',
  'guard.RISK_BLOCKED.title': 'Esta página não está disponível',
  'guard.RISK_BLOCKED.text':
    'Para sua segurança, esta página não pode ser aberta com este login. Se achar que é um engano, fale com o suporte.',
  'guard.IDENTITY_REQUIRED.title': 'Verificação necessária',
  'guard.IDENTITY_REQUIRED.text':
    'Esta página exige um contato verificado que você ainda não confirmou. Entre com ele para continuar.',
  'guard.SESSION_ENDED.title': 'Entre de novo',
  'guard.SESSION_ENDED.text': 'Sua sessão terminou. Entre de novo para ver esta página.',
  'guard.signIn': 'Entrar',
  // The callback's refusals (CALLBACK_FAILURES), as the app's failure handling shows them.
  'failure.INVALID_CODE':
    'Este link de login está incompleto ou não é válido. Abra de novo o link da sua mensagem ou peça um novo.',
  'failure.CODE_REJECTED': 'Este link de login é inválido, expirou ou já foi usado. Peça um novo.',
  'failure.TOKEN_REJECTED': 'Não foi possível confirmar o seu login. Entre de novo.',
  'failure.NO_VERIFIED_IDENTITY': 'Não foi possível confirmar o seu e-mail ou número de celular. Peça um novo link.',
  'failure.WRONG_BROWSER':
    'Este link de login não pode ser usado aqui: ele já foi usado ou foi aberto em um navegador diferente daquele em que você o pediu. Peça um novo link neste navegador.',
  'failure.CROSS_SITE': 'Este pedido de login não veio deste site.',
  'failure.FLOW_PENDING':
    'O login ainda não foi aprovado. Abra o link no seu celular e digite o número que aparece aqui.',
  'failure.FLOW_DENIED': 'Este login foi cancelado no outro dispositivo. Peça um novo link se quiser entrar.',
  'failure.FLOW_EXPIRED': 'Este pedido de login expirou ou já foi usado. Peça um novo link.',
  'failure.USER_REFUSED': 'O login foi recusado.',
  // The send route's refusals of what the person typed.
  'send.none': 'Digite um e-mail ou um número de celular.',
  'send.email': 'Digite um e-mail válido, como nome@example.com.',
  'send.mobile': 'Digite um número de celular válido com o código do país, como +5511912345678.',
  'send.service': 'Não foi possível enviar o link de login agora. Tente de novo daqui a pouco.',
  'send.space': 'Digite o e-mail sem espaços, como nome@example.com.',
  'send.twoContacts':
    'Digite só um e-mail: este campo tem mais de um contato. Coloque o número de celular no campo dele ou use só um dos dois.',
  'send.hidden': 'Digite o e-mail de novo, sem colar: ele contém caracteres invisíveis.',
  'send.lookalike':
    'Digite o e-mail de novo: ele contém caracteres parecidos com outros (letras de largura total ou de alfabetos diferentes).',
  'send.international': 'Digite o e-mail só com letras simples (a-z, números e pontos), como nome@example.com.',
  'send.phoneFormat':
    'Digite o número de celular com algarismos, como +5511912345678 (espaços, hífens e parênteses podem ser usados).',
  'send.phoneCountryCode':
    'Digite o número de celular com o código do país: coloque + e o código na frente, como +55 11 91234-5678.',
  'send.phoneInvalid':
    'Digite um número de celular válido: este tem dígitos demais ou de menos para o país, ou não está em uso.',
  'send.phoneKind':
    'Digite um número de celular: números de tarifa premium, gratuitos (0800) e de custo compartilhado não podem receber links de login.',
  'send.channel': 'Escolha WhatsApp ou SMS.',
  'send.botCheck': 'Confirme que você é uma pessoa (a verificação abaixo) e envie de novo.',
  'send.botCheckUnavailable': 'Não foi possível verificar agora que você é uma pessoa. Tente de novo daqui a pouco.',
  // Passkeys (the mount's `passkeys` option): the offer after a link login, the sign-in button, refusals.
  'passkey.offer.title': 'Entre mais rápido da próxima vez',
  'passkey.offer.text':
    'Entre mais rápido da próxima vez: use uma chave de acesso neste dispositivo. Sua digital, seu rosto ou o bloqueio de tela fazem o login, e nenhuma mensagem é enviada.',
  'passkey.offer.button': 'Usar uma chave de acesso neste dispositivo',
  'passkey.offer.notNow': 'Agora não',
  'passkey.signIn.button': 'Entrar com uma chave de acesso',
  'passkey.working': 'Aguardando seu dispositivo…',
  'passkey.done': 'Chave de acesso salva.',
  'passkey.cancelled': 'A chave de acesso não foi usada. Tente de novo ou peça um link de acesso.',
  'passkey.failed': 'Não funcionou. Tente de novo ou peça um link de acesso.',
  'passkey.PASSKEY_NOT_ALLOWED':
    'Só é possível adicionar uma chave de acesso logo depois de entrar com um link, no mesmo navegador. Entre com um link e depois adicione.',
  'passkey.PASSKEY_CHALLENGE_EXPIRED': 'Este pedido expirou. Tente de novo ou peça um link de acesso.',
  'passkey.PASSKEY_UNKNOWN':
    'Esta chave de acesso não é conhecida aqui (talvez tenha sido removida). Peça um link de acesso.',
  'passkey.PASSKEY_WRONG_ORIGIN': 'Esta resposta da chave de acesso foi feita para outro site. Peça um link de acesso.',
  'passkey.PASSKEY_COUNTER_BACKWARDS': 'Não foi possível confiar nesta chave de acesso. Peça um link de acesso.',
  'passkey.PASSKEY_INVALID': 'Não foi possível verificar a chave de acesso. Tente de novo ou peça um link de acesso.',
  'guard.PASSKEY_NOT_ACCEPTED.title': 'Entre com um link',
  'guard.PASSKEY_NOT_ACCEPTED.text':
    'Esta página precisa de um acesso por link: um acesso com chave de acesso não traz as verificações de que esta página depende. Entre com um link para continuar.',
};
