# खिलाड़ी साथ में (docs/social.md): दोस्तों का पन्ना, प्रोफ़ाइल के बटन, चुनौतियाँ, शिकायत
# का डायलॉग, लॉबी के प्रस्ताव और मेज़ की चैट।

## डायलॉग

dialog-cancel = रद्द करें

## दोस्त (#/friends)

friends-title = दोस्त
friends-add-title = दोस्त जोड़ें
friends-add-id = खिलाड़ी की आईडी
friends-add-submit = अनुरोध भेजें
friends-add-hint = खिलाड़ी की आईडी उसकी प्रोफ़ाइल के पते का आख़िरी हिस्सा है (#/p/…); प्रोफ़ाइल पर "दोस्त बनाएँ" भी यही करता है।
friends-list-title = आपके दोस्त
friends-column-player = खिलाड़ी
friends-column-online = ऑनलाइन
friends-column-table = मेज़
friends-column-actions = कार्रवाई
friends-online = ऑनलाइन
friends-offline = ऑफ़लाइन
friends-watch = देखें ({ $game })
friends-challenge = चुनौती दें
friends-remove = हटाएँ
friends-none = अभी कोई दोस्त नहीं: किसी की प्रोफ़ाइल से या उसकी आईडी से अनुरोध भेजें।
friends-incoming-title = आपको मिले अनुरोध
friends-outgoing-title = आपके भेजे अनुरोध
friends-accept = स्वीकार करें
friends-decline = अस्वीकार करें
friends-withdraw = वापस लें
friends-requested = { $name } को अनुरोध भेजा गया।
friends-now = आप और { $name } अब दोस्त हैं।
blocked-title = ब्लॉक किए गए खिलाड़ी
blocked-unblock = अनब्लॉक करें

## चुनौतियाँ

challenges-title = चुनौतियाँ
challenges-incoming = आपको
challenges-outgoing = आपकी ओर से
challenge-title = चुनौती
challenge-to = { $players } के साथ एक निजी मेज़।
challenge-also = और दोस्तों को बुलाएँ
challenge-no-room = इस खेल में इतने खिलाड़ियों के लिए मेज़ नहीं है: कोई दूसरा खेल या कम खिलाड़ी चुनें।
challenge-expiry = जवाब का इंतज़ार
challenge-expiry-minutes = { $minutes ->
    [one] { $minutes } मिनट
   *[other] { $minutes } मिनट
}
challenge-hint = पहली स्वीकृति पर मेज़ खुलती है और सारी जगहें भरने पर खेल शुरू होता है।
challenge-send = चुनौती भेजें
challenge-sent = { $players } को चुनौती भेजी गई।
challenge-incoming = { $player } ने आपको चुनौती दी है: { $game }, { $seats } जगहें, { $until } तक।
challenge-outgoing = { $game }, { $seats } जगहें, { $players } को, { $until } तक।
challenge-answer-pending = इंतज़ार में
challenge-answer-accepted = स्वीकार की
challenge-answer-declined = अस्वीकार की
challenge-accept = स्वीकार करें
challenge-decline = अस्वीकार करें
challenge-withdraw = वापस लें
challenge-accepted-by = { $players } ने आपकी चुनौती स्वीकार की।
challenge-accepted-said = आपकी चुनौती स्वीकार हुई: उसकी मेज़ खुल गई है।
challenge-open-table = मेज़ खोलें
challenge-received = { $name } ने आपको चुनौती दी है।

## लॉबी के प्रस्ताव

lobby-offers = चुनौतियाँ और दोबारा खेल
rematch-offer = { $player } दोबारा खेलना चाहते हैं।
rematch-offer-said = { $name } दोबारा खेलना चाहते हैं।
rematch-open = मेज़ खोलें

## किसी दूसरे खिलाड़ी की प्रोफ़ाइल के बटन

profile-actions = इस खिलाड़ी के साथ
profile-add-friend = दोस्त बनाएँ
profile-block = ब्लॉक करें
profile-report = शिकायत करें
profile-blocked = { $name } को ब्लॉक किया गया।

## शिकायतें

report-title = शिकायत
report-player = मॉडरेटरों से { $player } की शिकायत करें।
report-message = मॉडरेटरों से { $player } के इस संदेश की शिकायत करें।
report-reason = क्यों?
report-send = शिकायत भेजें
report-sent = धन्यवाद: मॉडरेटर इसे देखेंगे।

## मेज़ की चैट

chat-title = चैट
chat-none = अभी कोई संदेश नहीं।
chat-said = { $name }: { $text }
chat-report-message = { $name } के संदेश की शिकायत करें
chat-report-player = { $name } की शिकायत करें
chat-report = शिकायत करें
chat-spectator = यहाँ खिलाड़ी चैट करते हैं; मेज़बान अनुमति दे तो दर्शक भी पढ़ सकते हैं।
chat-host-settings = आपकी मेज़ की चैट
chat-text-on = खुला संदेश
chat-spectators = दर्शक पढ़ सकते हैं
chat-emotes = झटपट संदेश
chat-input = संदेश
chat-placeholder = कुछ कहिए…
chat-send = भेजें
chat-text-off = मेज़बान ने खुला संदेश बंद किया है: सिर्फ़ झटपट संदेश।
chat-players = खिलाड़ी
chat-mute = म्यूट करें
chat-unmute = म्यूट हटाएँ
chat-muted = म्यूट किया: उनके संदेश अब आपको नहीं दिखेंगे।
chat-unmuted = म्यूट हटाया।
emote-hello = नमस्ते!
emote-good_luck = शुभकामनाएँ!
emote-well_played = बढ़िया खेले!
emote-good_game = अच्छा खेल!
emote-thanks = धन्यवाद!
emote-oops = उफ़!
emote-wow = वाह!
emote-sorry = माफ़ कीजिए!
emote-hurry_up = जल्दी कीजिए!
emote-nice_roll = बढ़िया पासा!
