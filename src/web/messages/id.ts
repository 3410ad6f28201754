import type { Messages } from './en.js';

/** Indonesian (Bahasa Indonesia): polite "Anda", the words sign-in screens in Indonesia use. */
export const id: Messages = {
  'approval.title': 'Setujui proses masuk di komputer Anda?',
  'approval.asked': '{device} meminta untuk masuk {when}.',
  'approval.device': '{browser} di {os}',
  'approval.deviceUnknown': 'Sebuah browser',
  'approval.justNow': 'baru saja',
  'approval.minuteAgo': 'semenit yang lalu',
  'approval.minutesAgo': '{count} menit yang lalu',
  'approval.instructions':
    'Ketik angka yang tampil di layar itu agar komputer tersebut bisa masuk. Jika Anda tidak meminta untuk masuk, tekan “{deny}”.',
  'approval.numberLabel': 'Angka yang tampil di komputer Anda',
  'approval.approve': 'Setujui',
  'approval.deny': 'Ini bukan saya',
  'approval.numberMissing': 'Ketik angka dua digit yang tampil di komputer Anda, lalu tekan “{approve}”.',
  'outcome.approved.title': 'Anda sudah masuk di komputer Anda',
  'outcome.approved.text': 'Anda boleh menutup tab ini dan kembali ke komputer Anda.',
  'outcome.wrongNumber.title': 'Proses masuk dibatalkan',
  'outcome.wrongNumber.text':
    'Angkanya tidak cocok, jadi tidak ada yang masuk. Jika itu memang Anda, minta tautan baru di komputer Anda.',
  'outcome.denied.title': 'Proses masuk dibatalkan',
  'outcome.denied.text': 'Tidak ada yang masuk. Jika Anda tidak meminta tautan ini, abaikan saja: akun Anda aman.',
  'outcome.rejected.title': 'Tautan ini tidak dapat digunakan',
  'outcome.rejected.text':
    'Tautan ini tidak valid, sudah kedaluwarsa, atau sudah pernah digunakan. Minta tautan baru di komputer Anda.',
  'outcome.gone.title': 'Permintaan masuk ini sudah berakhir',
  'outcome.gone.text':
    'Permintaan ini sudah kedaluwarsa, atau sudah disetujui atau dibatalkan. Minta tautan baru di komputer Anda jika perlu.',
  'confirm.title': 'Konfirmasi proses masuk',
  'confirm.text': 'Tekan tombol di bawah untuk menyelesaikan proses masuk.',
  'confirm.button': 'Masuk',
  // Halaman masuk.
  'signIn.title': 'Masuk',
  'signIn.text.email': 'Masukkan alamat email Anda dan kami akan mengirim tautan untuk masuk. Tanpa kata sandi.',
  'signIn.text.mobile': 'Masukkan nomor ponsel Anda dan kami akan mengirim tautan untuk masuk. Tanpa kata sandi.',
  'signIn.text.both':
    'Masukkan alamat email atau nomor ponsel Anda dan kami akan mengirim tautan untuk masuk. Tanpa kata sandi.',
  'signIn.emailLabel': 'Alamat email',
  'signIn.mobileLabel': 'Nomor ponsel',
  'signIn.mobileHint': 'Dengan kode negaranya, misalnya +62 812 3456 7890.',
  'signIn.mobileHintCountry': 'Dengan kode negaranya, atau seperti Anda memanggilnya di {country}.',
  'signIn.or': 'atau',
  'signIn.channelLegend': 'Kirim tautan ke ponsel melalui',
  'signIn.whatsapp': 'WhatsApp',
  'signIn.sms': 'SMS',
  'signIn.button': 'Kirimkan tautan masuk',
  // Halaman tunggu, di browser yang meminta tautan.
  'waiting.title.pending': 'Periksa pesan Anda',
  'waiting.title.approved': 'Proses masuk disetujui',
  'waiting.title.over': 'Proses masuk ini tidak selesai',
  'waiting.sentTo': 'Kami telah mengirim tautan masuk ke {to}.',
  'waiting.sent': 'Kami telah mengirimkan tautan masuk kepada Anda.',
  'waiting.open': 'Buka tautan di browser ini, atau di ponsel Anda. Tautan hanya berlaku sekali.',
  'waiting.matchLabel': 'Membuka tautan di perangkat lain? Tautan itu akan meminta angka ini',
  'waiting.matchNote':
    'Jangan membalas pesan dengan angka ini: ketik hanya di halaman yang dibuka tautan. Halaman ini lalu memasukkan Anda secara otomatis.',
  'waiting.status.pending': 'Menunggu Anda membuka tautan…',
  'waiting.status.approved': 'Disetujui. Sedang memasukkan Anda…',
  'waiting.status.denied': 'Proses masuk dibatalkan di perangkat lain. Tidak ada yang masuk.',
  'waiting.status.expired': 'Tautan kedaluwarsa sebelum digunakan. Tidak ada yang masuk.',
  'waiting.status.none': 'Tidak ada proses masuk yang menunggu di browser ini.',
  'waiting.expiresIn': 'Tautan kedaluwarsa dalam {time}.',
  'waiting.continue': 'Sudah saya setujui: lanjutkan',
  'waiting.resend': 'Kirim ulang tautan',
  'waiting.resendIn': 'Anda dapat meminta tautan lain dalam {time}.',
  'waiting.wrong': 'Alamat salah, atau tidak ada yang masuk?',
  // The waiting page: the channel the link went by, its app, and another way to get it.
  'waiting.sentBy.WHATSAPP': 'Kami telah mengirim tautan masuk ke {to} melalui WhatsApp.',
  'waiting.sentBy.SMS': 'Kami telah mengirim tautan masuk ke {to} melalui SMS.',
  'waiting.sentBy.EMAIL': 'Kami telah mengirim tautan masuk ke {to} melalui email.',
  'waiting.openApp.WHATSAPP': 'Buka WhatsApp',
  'waiting.again': 'Tidak menerimanya?',
  'waiting.instead.WHATSAPP': 'Kirim lewat WhatsApp saja',
  'waiting.instead.SMS': 'Kirim lewat SMS saja',
  'waiting.same.WHATSAPP': 'Kirim ulang lewat WhatsApp',
  'waiting.same.SMS': 'Kirim ulang lewat SMS',
  // The error page of a used or expired link, in the browser that asked for it.
  'error.sendNew': 'Kirim tautan baru',
  'error.sendNewTo': 'Kami dapat mengirim tautan baru ke {to}.',
  // The send limits' refusals: what was refused, then when to try again.
  'limit.ip': 'Terlalu banyak tautan masuk diminta dari jaringan ini.',
  'limit.email': 'Terlalu banyak tautan masuk dikirim ke alamat email ini.',
  'limit.mobile': 'Terlalu banyak tautan masuk dikirim ke nomor ponsel ini.',
  'limit.tryAgain': 'Coba lagi dalam {time}.',
  // Halaman galat untuk tautan yang gagal.
  'error.title': 'Proses masuk ini gagal',
  'error.next': 'Mulai lagi untuk mendapatkan tautan masuk baru, lalu buka di browser tempat Anda memintanya.',
  'error.code': 'Kode galat: {code}',
  'error.service': 'Saat ini tidak dapat masuk. Silakan coba lagi sebentar lagi.',
  'error.unknown': 'Terjadi kesalahan saat memasukkan Anda.',
  'pages.startAgain': 'Mulai lagi',
  'guard.UNAUTHENTICATED.title': 'Silakan masuk',
  'guard.UNAUTHENTICATED.text': 'Anda perlu masuk untuk melihat halaman ini.',
  'guard.RISK_CHALLENGE.title': 'Pastikan ini memang Anda',
  'guard.RISK_CHALLENGE.text':
    'Kami tidak dapat memastikan bahwa proses masuk ini cukup aman untuk halaman ini. Untuk melanjutkan, masuk lagi dari perangkat dan jaringan yang biasa Anda gunakan.',
  'guard.RISK_BLOCKED.title': 'Halaman ini tidak tersedia',
  'guard.RISK_BLOCKED.text':
    'Demi keamanan Anda, halaman ini tidak dapat dibuka dari proses masuk ini. Jika menurut Anda ini keliru, hubungi tim dukungan.',
  'guard.IDENTITY_REQUIRED.title': 'Verifikasi diperlukan',
  'guard.IDENTITY_REQUIRED.text':
    'Halaman ini memerlukan kontak terverifikasi yang belum Anda konfirmasi. Masuklah dengan kontak tersebut untuk melanjutkan.',
  'guard.SESSION_ENDED.title': 'Silakan masuk lagi',
  'guard.SESSION_ENDED.text': 'Sesi masuk Anda telah berakhir. Masuk lagi untuk melihat halaman ini.',
  'guard.signIn': 'Masuk',
  // The callback's refusals (CALLBACK_FAILURES), as the app's failure handling shows them.
  'failure.INVALID_CODE':
    'Tautan masuk ini tidak lengkap atau tidak valid. Buka lagi tautan dari pesan Anda, atau minta tautan baru.',
  'failure.CODE_REJECTED':
    'Tautan masuk ini tidak valid, sudah kedaluwarsa, atau sudah pernah digunakan. Minta tautan baru.',
  'failure.TOKEN_REJECTED': 'Proses masuk Anda tidak dapat dikonfirmasi. Silakan masuk lagi.',
  'failure.NO_VERIFIED_IDENTITY': 'Alamat email atau nomor ponsel Anda tidak dapat dikonfirmasi. Minta tautan baru.',
  'failure.WRONG_BROWSER':
    'Tautan masuk ini tidak dapat digunakan di sini: tautan sudah pernah digunakan, atau dibuka di browser lain, bukan di browser tempat Anda memintanya. Minta tautan baru di browser ini.',
  'failure.CROSS_SITE': 'Permintaan masuk ini tidak berasal dari situs ini.',
  'failure.FLOW_PENDING':
    'Proses masuk belum disetujui. Buka tautan di ponsel Anda dan ketik angka yang tampil di sini.',
  'failure.FLOW_DENIED': 'Proses masuk ini dibatalkan di perangkat lain. Minta tautan baru jika Anda ingin masuk.',
  'failure.FLOW_EXPIRED': 'Permintaan masuk ini sudah kedaluwarsa atau sudah digunakan. Minta tautan baru.',
  'failure.USER_REFUSED': 'Proses masuk ditolak.',
  // The send route's refusals of what the person typed.
  'send.none': 'Masukkan alamat email atau nomor ponsel.',
  'send.email': 'Masukkan alamat email yang valid, misalnya name@example.com.',
  'send.mobile': 'Masukkan nomor ponsel yang valid dengan kode negaranya, misalnya +6281234567890.',
  'send.service': 'Tautan masuk tidak dapat dikirim saat ini. Silakan coba lagi sebentar lagi.',
  'send.space': 'Masukkan alamat email tanpa spasi, misalnya name@example.com.',
  'send.twoContacts':
    'Masukkan satu alamat email saja: kolom ini berisi lebih dari satu kontak. Isi nomor ponsel di kolomnya sendiri, atau gunakan salah satunya saja.',
  'send.hidden':
    'Masukkan lagi alamat email dengan mengetiknya, jangan ditempel: alamat ini berisi karakter tak terlihat.',
  'send.lookalike':
    'Masukkan lagi alamat email: alamat ini berisi karakter yang mirip huruf lain (huruf lebar penuh, atau huruf dari abjad yang berbeda).',
  'send.international': 'Masukkan alamat email dengan huruf biasa (a-z, angka, titik), misalnya name@example.com.',
  'send.phoneFormat':
    'Masukkan nomor ponsel dalam angka, misalnya +6281234567890 (spasi, tanda hubung, dan tanda kurung boleh).',
  'send.phoneCountryCode':
    'Masukkan nomor ponsel dengan kode negaranya: tambahkan + dan kodenya di depan, misalnya +62 812 3456 7890.',
  'send.phoneInvalid':
    'Masukkan nomor ponsel yang valid: jumlah digit nomor ini terlalu banyak atau terlalu sedikit untuk negaranya, atau nomor ini tidak digunakan.',
  'send.phoneKind':
    'Masukkan nomor ponsel: nomor premium, bebas pulsa, dan berbagi biaya tidak dapat menerima tautan masuk.',
  'send.channel': 'Pilih WhatsApp atau SMS.',
  'send.botCheck': 'Pastikan Anda manusia (pemeriksaan di bawah), lalu kirim lagi.',
  'send.botCheckUnavailable':
    'Kami tidak dapat memeriksa bahwa Anda manusia saat ini. Silakan coba lagi sebentar lagi.',
  // Passkeys (the mount's `passkeys` option): the offer after a link login, the sign-in button, refusals.
  'passkey.offer.title': 'Masuk lebih cepat lain kali',
  'passkey.offer.text':
    'Masuk lebih cepat lain kali: gunakan passkey di perangkat ini. Sidik jari, wajah, atau kunci layar Anda yang memasukkan Anda, dan tidak ada pesan yang dikirim.',
  'passkey.offer.button': 'Gunakan passkey di perangkat ini',
  'passkey.offer.notNow': 'Nanti saja',
  'passkey.signIn.button': 'Masuk dengan passkey',
  'passkey.working': 'Menunggu perangkat Anda…',
  'passkey.done': 'Passkey disimpan.',
  'passkey.cancelled': 'Passkey tidak digunakan. Anda dapat mencoba lagi, atau meminta tautan masuk.',
  'passkey.failed': 'Tidak berhasil. Anda dapat mencoba lagi, atau meminta tautan masuk.',
  'passkey.PASSKEY_NOT_ALLOWED':
    'Passkey hanya dapat ditambahkan tepat setelah masuk dengan tautan, di browser yang sama. Masuk dengan tautan, lalu tambahkan.',
  'passkey.PASSKEY_CHALLENGE_EXPIRED': 'Permintaan ini sudah kedaluwarsa. Silakan coba lagi, atau minta tautan masuk.',
  'passkey.PASSKEY_UNKNOWN': 'Passkey ini tidak dikenal di sini (mungkin sudah dihapus). Mintalah tautan masuk.',
  'passkey.PASSKEY_WRONG_ORIGIN': 'Jawaban passkey ini dibuat untuk situs lain. Mintalah tautan masuk.',
  'passkey.PASSKEY_COUNTER_BACKWARDS': 'Passkey ini tidak dapat dipercaya. Mintalah tautan masuk.',
  'passkey.PASSKEY_INVALID': 'Passkey tidak dapat diperiksa. Silakan coba lagi, atau minta tautan masuk.',
  'guard.PASSKEY_NOT_ACCEPTED.title': 'Silakan masuk dengan tautan',
  'guard.PASSKEY_NOT_ACCEPTED.text':
    'Halaman ini memerlukan masuk dengan tautan: masuk dengan passkey tidak membawa pemeriksaan yang diandalkan halaman ini. Masuk dengan tautan untuk melanjutkan.',
};
