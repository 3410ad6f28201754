import type { Messages } from './en.js';

/** Hindi (हिन्दी): written for meaning, in the everyday register of sign-in screens. */
export const hi: Messages = {
  'approval.title': 'अपने कंप्यूटर पर साइन इन की मंज़ूरी दें?',
  'approval.asked': '{device} ने {when} साइन इन करने का अनुरोध किया।',
  'approval.device': '{os} पर {browser}',
  'approval.deviceUnknown': 'एक ब्राउज़र',
  'approval.justNow': 'अभी-अभी',
  'approval.minuteAgo': 'एक मिनट पहले',
  'approval.minutesAgo': '{count} मिनट पहले',
  'approval.instructions':
    'साइन इन करने के लिए उस स्क्रीन पर दिख रहा नंबर यहाँ लिखें। अगर आपने साइन इन का अनुरोध नहीं किया था, तो “{deny}” दबाएँ।',
  'approval.numberLabel': 'आपके कंप्यूटर पर दिख रहा नंबर',
  'approval.approve': 'मंज़ूरी दें',
  'approval.deny': 'यह मैंने नहीं किया',
  'approval.numberMissing': 'अपने कंप्यूटर पर दिख रहा दो अंकों का नंबर लिखें, फिर “{approve}” दबाएँ।',
  'outcome.approved.title': 'आप अपने कंप्यूटर पर साइन इन हो गए हैं',
  'outcome.approved.text': 'अब आप यह टैब बंद करके अपने कंप्यूटर पर लौट सकते हैं।',
  'outcome.wrongNumber.title': 'साइन इन रद्द कर दिया गया',
  'outcome.wrongNumber.text': 'नंबर मेल नहीं खाया, इसलिए कोई साइन इन नहीं हुआ। अगर यह आप ही थे, तो अपने कंप्यूटर पर नया लिंक माँगें।',
  'outcome.denied.title': 'साइन इन रद्द कर दिया गया',
  'outcome.denied.text': 'कोई साइन इन नहीं हुआ। अगर आपने यह लिंक नहीं माँगा था, तो इसे अनदेखा कर दें: आपका खाता सुरक्षित है।',
  'outcome.rejected.title': 'इस लिंक का उपयोग नहीं किया जा सकता',
  'outcome.rejected.text':
    'यह लिंक अमान्य है, इसकी समय-सीमा खत्म हो गई है या इसका पहले ही उपयोग हो चुका है। अपने कंप्यूटर पर नया लिंक माँगें।',
  'outcome.gone.title': 'यह साइन इन अनुरोध अब मान्य नहीं है',
  'outcome.gone.text':
    'इसकी समय-सीमा खत्म हो गई है, या इसे पहले ही मंज़ूरी दी जा चुकी है या रद्द किया जा चुका है। ज़रूरत हो तो अपने कंप्यूटर पर नया लिंक माँगें।',
  'confirm.title': 'साइन इन की पुष्टि करें',
  'confirm.text': 'साइन इन पूरा करने के लिए बटन दबाएँ।',
  'confirm.button': 'साइन इन करें',
  'guard.UNAUTHENTICATED.title': 'कृपया साइन इन करें',
  'guard.UNAUTHENTICATED.text': 'यह पेज देखने के लिए आपको साइन इन करना होगा।',
  'guard.RISK_CHALLENGE.title': 'कृपया पुष्टि करें कि यह आप ही हैं',
  'guard.RISK_CHALLENGE.text':
    'हम पुष्टि नहीं कर सके कि यह साइन इन इस पेज के लिए पर्याप्त सुरक्षित है। आगे बढ़ने के लिए अपने रोज़ के डिवाइस और नेटवर्क से फिर से साइन इन करें।',
  'guard.RISK_BLOCKED.title': 'यह पेज उपलब्ध नहीं है',
  'guard.RISK_BLOCKED.text':
    'आपकी सुरक्षा के लिए यह पेज इस साइन इन से नहीं खोला जा सकता। अगर आपको लगता है कि यह गलती है, तो सहायता टीम से संपर्क करें।',
  'guard.IDENTITY_REQUIRED.title': 'पुष्टि ज़रूरी है',
  'guard.IDENTITY_REQUIRED.text':
    'इस पेज के लिए एक ऐसा संपर्क चाहिए जिसकी पुष्टि आपने अभी तक नहीं की है। आगे बढ़ने के लिए उसी से साइन इन करें।',
  'guard.signIn': 'साइन इन करें',
};
