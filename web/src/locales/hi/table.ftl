# एक मेज़ का पन्ना (pages/table.js, table/*.js) और दोबारा देखना (pages/replay.js)।

table-loading = मेज़ लोड हो रही है…
table-title = { $game }{ $private ->
    [yes] {" · "}निजी
   *[no] {""}
}{ $party ->
    [yes] {" · "}पार्टी
   *[no] {""}
} · हर चाल के लिए { $seconds } सेकंड
side-label = मेज़
announcer-label = क्या हो रहा है
seats-label = जगहें
controls-label = आपकी चालें
board-as-text = बोर्ड शब्दों में
board-later = खेल शुरू होने पर बोर्ड दिखेगा।
log-title = ब्योरा

seat-number = जगह { $seat }
bot-name = बॉट { $seat }
empty-seat = खाली जगह { $seat }
seat-who = { $name } ({ $colour })
seat-colour = { $colour }, { $shape }
colour-name = { $colour ->
    [yellow] पीला
    [red] लाल
    [green] हरा
    [blue] नीला
    [purple] बैंगनी
    [orange] नारंगी
    [white] सफ़ेद
    [black] काला
   *[other] { $colour }
}
shape-name = { $shape ->
    [circle] गोला
    [square] चौकोर
    [triangle] त्रिकोण
    [diamond] हीरा
    [hexagon] षट्भुज
   *[down] उल्टा त्रिकोण
}
tag-host = मेज़बान
tag-you = आप
tag-bot = बॉट
tag-online = ऑनलाइन
tag-offline = ऑफ़लाइन
tag-bot-playing-for = { $name } की जगह बॉट खेल रहा है
tag-timed-out = समय खत्म ×{ $count }
tag-timed-out-entry = समय खत्म
tag-place = स्थान { $place }
tag-wants-rematch = फिर से खेलना चाहते हैं

connection-live = लाइव
connection-reconnecting = फिर से जुड़ रहा है…
connection-closed = बंद
connection-finished = खत्म
connection-everyone-left = बंद: सब चले गए
connection-private = यह मेज़ निजी है

turn-waiting-room = प्रतीक्षा कक्ष
turn-game-over = खेल खत्म हो गया
turn-yours = आपकी बारी
turn-theirs = { $name } की बारी
clock-seconds = { $seconds } सेकंड

room-waiting-public = खिलाड़ियों का इंतज़ार है। लिंक भेजें:
room-waiting-private = खिलाड़ियों का इंतज़ार है। निजी मेज़: न्योते का लिंक भेजें।
room-link = इस मेज़ का लिंक
room-copy = कॉपी करें
room-sign-up = साइन अप करें
room-sign-up-after = ताकि आप बैठ सकें।
room-join = जगह लें
room-leave = मेज़ छोड़ें
room-start = शुरू करें (खाली जगहों पर बॉट बैठेंगे)
room-host-starts = मेज़बान खेल शुरू करेगा।

controls-watching = आप देख रहे हैं।
controls-bot-playing = आपकी जगह एक बॉट खेल रहा है।
controls-reclaim = मेरी जगह वापस दें
controls-choose = एक चाल चुनें
controls-cancel = रद्द करें
controls-actions = कार्य
controls-click-piece = किसी चमकती गोटी पर क्लिक करें, या चुनें:
controls-start-again = चाल फिर से शुरू करें
controls-all-moves = सभी सही चालें ({ $count })
controls-not-your-turn = आपकी बारी नहीं है।
controls-only-move = आपकी इकलौती चाल आपके लिए चल दी जाएगी।
action-roll = पासा फेंकें
action-pass = छोड़ें

dice-you-threw = आपने फेंका
dice-threw = { $who } ने फेंका
dice-label = { $count ->
    [one] पासा: { $dice }
   *[other] पासे: { $dice }
}
dice-your-turn-to-throw = पासा फेंकने की आपकी बारी है।

end-title = खेल खत्म
end-place = {" — "}स्थान { $place }
end-points = , { $points } अंक
end-check-dice = पासे जाँचें
end-replay = दोबारा देखें
rematch-ask = फिर से खेलें
rematch-asked = आपने फिर से खेलने को कहा है।
rematch-waiting = आपने फिर से खेलने को कहा है; इनका इंतज़ार है: { $names }।
rematch-wanted = { $names } फिर से खेलना चाहते हैं।
rematch-opened = नया खेल शुरू हो गया: नई मेज़ पर चलें।

log-table = मेज़
log-seat-taken = { $name } बैठ गए
log-seat-left = मेज़ छोड़ दी
log-bot-seated = एक बॉट बैठ गया
log-settings-changed = सेटिंग बदलीं
log-start = खेल शुरू हुआ
log-finish = खेल खत्म हुआ
log-takeover = जगह बॉट ने ले ली ({ $reason ->
    [timeouts] समय खत्म
    [stalling] देरी
   *[away] गैरहाज़िर
})
log-reclaim = जगह वापस ले ली
log-closed = मेज़ बंद हो गई
log-threw = {" — "}फेंका { $dice }

said-and = {" और "}
said-your-turn = आपकी बारी।
said-timed-out = { $who } का समय खत्म हो गया।
said-seat-taken = { $name } बैठ गए।
said-seat-left = { $name } ने मेज़ छोड़ दी।
said-bot-seated = जगह { $seat } पर एक बॉट बैठ गया।
said-start = खेल शुरू हो गया।
said-takeover = अब { $who } की जगह बॉट खेल रहा है।
said-reclaim = { $who } ने जगह वापस ले ली।
said-closed = मेज़ बंद हो गई: सब चले गए।
said-opening-rolled = शुरुआत के लिए { $who } ने { $dice } फेंका।
said-opening-tie = बराबरी: { $who } फिर से फेंकेंगे।
said-first-to-play = { $who } पहले खेलेंगे।
said-rolled = { $who } ने { $dice } फेंका।
said-extra-roll = { $who } फिर से पासा फेंकेंगे।
said-turn-passed = अब पासा फेंकने की बारी { $who } की है।
said-seat-finished = { $who } स्थान { $place } पर पूरे हुए।
said-game-over = खेल खत्म: { $who } जीते।
said-game-over-nobody = खेल खत्म।

settings-title = सूचनाएँ और कुंजियाँ
settings-sound = मेरी बारी आने पर आवाज़
settings-notify = मेरी बारी आने पर सूचना, जब यह पन्ना छिपा हो
settings-keys = एक कुंजी वाले सवाल
settings-keys-list = जब मेज़ पर फ़ोकस हो: T किसकी बारी, D पासे, C मेरा समय, P मेरी गोटियाँ कहाँ हैं, S स्कोर, M मेरी चालें, ? यह सूची।
query-help = कुंजियाँ: T किसकी बारी, D पासे, C मेरा समय, P मेरी गोटियाँ कहाँ हैं, S स्कोर, M मेरी चालें, प्रश्नचिह्न यह सूची।
query-game-over = खेल खत्म हो गया है।
query-not-started = खेल अभी शुरू नहीं हुआ है।
query-seconds-left = { $seconds } सेकंड बाकी।
query-no-dice = अभी तक पासा नहीं फेंका गया।
query-dice = पासे: { $dice }।
query-not-seated = इस मेज़ पर आपकी कोई जगह नहीं है।
query-not-your-turn = अभी { $name } की बारी है, आपकी नहीं।
query-my-clock = आपके पास { $seconds } सेकंड बाकी हैं।
query-no-moves = अभी आपके पास कोई चाल नहीं है।
query-moves = { $count ->
    [one] आपकी चाल: { $moves }।
   *[other] आपकी { $count } चालें: { $moves }।
}

alert-your-turn = आपकी बारी
alert-time-low = { $seconds } सेकंड बाकी
alert-title = ● { $what } — { $title }

replay-loading = खेल लोड हो रहा है…
replay-not-over = यह खेल अभी खत्म नहीं हुआ है:
replay-watch = इसे देखें।
replay-title = दोबारा देखें: { $game } — { $players }
replay-side = दोबारा देखना
replay-steps = खेल को कदम-दर-कदम देखें
replay-first = शुरुआत
replay-previous = पिछला
replay-next = अगला
replay-last = अंत
replay-position = खेल में स्थिति
replay-step = { $step } / { $steps } (seq { $seq })
replay-table = मेज़
download-json = रिकॉर्ड डाउनलोड करें
table-fresh-dice-on = ताज़ा पासे: हर खिलाड़ी के पासे में एक ऐसा रहस्य मिलाया जाता है जिसे उसके अपने ब्राउज़र ने शुरुआत से पहले तय कर दिया था, इसलिए कोई भी, सर्वर भी नहीं, पासा फेंकने के अनुरोध से पहले उसे नहीं जान सकता।
table-fresh-dice-off = इस मेज़ के पासे सिर्फ़ सर्वर के पहले से तय बीज से आते हैं (ताज़ा पासे बंद हैं): खेल के बाद इन्हें जाँचा जा सकता है, पर खिलाड़ी कोई नया यादृच्छिक अंश नहीं जोड़ते।
table-fresh-dice-timeout-roll = आपने पासा फेंकना चाहा, पर घड़ी ने सर्वर के अपने पासों से आपके लिए फेंक दिया: हो सकता है आपका अनुरोध रोका गया हो।
review-title = विश्लेषण
review-pending = विश्लेषण तैयार हो रहा है…
review-unavailable = इस खेल का कोई विश्लेषण नहीं है।
review-search = हर निर्णय सर्वर के नेटवर्क ने आँका ({ $search }); इक्विटी प्रति क्यूब इकाई।
review-seat = { $player }: प्रति निर्णय { $rate } mp ({ $band }), { $decisions } निर्णय, { $errors } ग़लतियाँ, { $blunders } भारी भूलें, भाग्य { $luck }
review-step-none = इस क़दम पर कोई निर्णय नहीं।
review-play = { $player } ने { $dice } खेला: { $played }
review-cube = { $player }: { $played }
review-best = सबसे अच्छा: { $best }
review-lost = नुक़सान { $loss }
review-luck = भाग्य { $luck }
review-mark-error = ग़लती
review-mark-blunder = भारी भूल
review-marks = ग़लतियाँ और भारी भूलें
review-go = क़दम { $step } पर जाएँ
review-action-double = डबल
review-action-no_double = डबल नहीं
review-action-too_good = डबल के लिए बहुत अच्छा
review-action-take = स्वीकार
review-action-pass = छोड़ें
review-action-beaver = बीवर
review-band-supernatural = अलौकिक
review-band-world_class = विश्व स्तरीय
review-band-expert = विशेषज्ञ
review-band-advanced = उन्नत
review-band-intermediate = मध्यम
review-band-casual_player = शौक़िया खिलाड़ी
review-band-beginner = नौसिखिया
review-band-awful = बहुत बुरा!
hint-ask = संकेत
hint-cube = { $double }; जवाब: { $response } (डबल के बिना: { $equity })
hint-play = { $play } ({ $equity })
