# हर दृश्य में साझा हिस्से: शीर्ष पट्टी, उसका नेविगेशन, खाते की पट्टी।

nav-pages = पृष्ठ
nav-lobby = लॉबी
nav-new-table = नई मेज़
nav-friends = दोस्त
nav-leaderboard = लीडरबोर्ड
nav-shame = शर्म का दरबार
nav-fairness = निष्पक्षता
nav-api = API
skip-to-content = सामग्री पर जाएँ
language-switch = भाषा

game-luddo = लूडो (Luddo)
game-ludo = लूडो
game-uckers = अकर्स
game-snakes = साँप और सीढ़ी
game-backgammon = बैकगैमन

# खाते की पट्टी। { $name } खिलाड़ी का नाम और उसका टैग है, प्रोफ़ाइल की कड़ी।
account-signed-in = { $name } के रूप में साइन इन
account-profile = आपकी प्रोफ़ाइल
account-sign-out = साइन आउट
account-not-signed-in = साइन इन नहीं किया

signup-title = खेलने के लिए साइन अप करें
signup-name = आपका नाम
signup-submit = साइन अप
signup-hint = कोई पासवर्ड नहीं: आपका टोकन इसी ब्राउज़र (localStorage) में रहता है। सार्वजनिक मेज़ें कोई भी बिना साइन अप किए देख सकता है।

loading = लोड हो रहा है…
none-yet = अभी कोई नहीं।
bot = बॉट
seconds = { $seconds } सेकंड
field-game = खेल
column-game = खेल
column-rating = रेटिंग
column-deviation = ± विचलन

failure-network = सर्वर तक नहीं पहुँच पा रहे। अपना कनेक्शन जाँचें और फिर से कोशिश करें।
failure-http = सर्वर ने त्रुटि लौटाई (HTTP { $status })।
feed-private = यह मेज़ निजी है

fairness-checking = जाँच हो रही है…
fairness-verdict-ok = सत्यापित
fairness-verdict-not = सत्यापित नहीं
fairness-verified = { $verdict }: खोला गया बीज वचनबद्धता से मेल खाता है, और { $entries } लॉग प्रविष्टियों के { $dice ->
    [one] एकमात्र पासे
   *[other] सभी { $dice } पासे
  } इस ब्राउज़र में दोबारा गणना किए गए HMAC-SHA256(बीज, क्लाइंट बीज) से मेल खाते हैं।
fairness-refuted = { $verdict }: { $reason }
fairness-no-seed = खेल खत्म नहीं हुआ: अभी कोई बीज नहीं खोला गया
fairness-commitment = खोले गए बीज का SHA-256 { $computed } है, वचनबद्धता { $commitment } नहीं
fairness-no-start = लॉग में कोई शुरुआत नहीं है
fairness-seeds-combine = सीटों के बीज मिलकर { $combined } बनते हैं, { $expected } नहीं
fairness-seats-seeds = शुरुआत के बीज सीटों के बीज नहीं हैं
fairness-client-seed = शुरुआत का क्लाइंट बीज मेज़ का नहीं है
fairness-die = प्रविष्टि { $seq }, घटना { $index } ({ $event }): पासा क्रमांक { $k } पर { $die } है, विधि से { $expected } आता है
fairness-chain = प्रविष्टि { $seq }: सीट { $seat } का खुलासा उसकी पासा-शृंखला की अगली कड़ी नहीं है (क्रम गलत, कोई कड़ी छूटी, या कोई शृंखला तय नहीं)
fairness-chain-shown = सीट { $seat } शुरुआत में तय की गई शृंखला से अलग पासा-शृंखला दिखाती है
fairness-reveal-missing = प्रविष्टि { $seq }: सीट { $seat } के खिलाड़ी ने बिना खुलासे के पासा फेंका: जहाँ खिलाड़ी के पासे होने थे, वहाँ सर्वर के अपने पासे
