# हर खेल का अपना कोड क्या कहता है (games/<game>.js, boards/*.js)।

piece = { $colour ->
    [yellow] पीली गोटी { $number }
    [red] लाल गोटी { $number }
    [green] हरी गोटी { $number }
    [blue] नीली गोटी { $number }
    [purple] बैंगनी गोटी { $number }
    [orange] नारंगी गोटी { $number }
   *[other] गोटी { $number }
}
piece-in-stack = { $piece }, इस खाने की { $count } गोटियों में से एक
pick-piece = { $piece } चलें
piece-where = { $piece } ({ $owner }): { $where }
piece-where-short = { $piece }: { $where }
piece-at = गोटी { $number }: { $where }
where-base = घर में
where-track = खाना { $square } पर ({ $progress } खाने आगे)
where-column = अंतिम रास्ते में, 5 में से खाना { $square }
where-home = मंज़िल पर
spot-base = घर
spot-track = खाना { $square }
spot-column = अंतिम रास्ते का खाना { $square }
spot-home = मंज़िल
board-ludo = { $game ->
    [ludo] लूडो
   *[luddo] लूडो (Luddo)
} बोर्ड, { $shape ->
    [hex] षट्कोणीय
   *[square] चौकोर
}, { $players } खिलाड़ी
seat-note-hex = {" "}(षट्कोणीय बोर्ड)
action-move-piece = गोटी { $number } चलें
said-moved = { $who } ने गोटी { $number } को { $from } से { $to } तक चला।
said-captured = { $who } ने { $owner } की गोटी { $number } काट दी।
said-piece-home = { $who } की गोटी { $number } मंज़िल पर पहुँची।
said-piece-home-named = { $who } की { $piece } मंज़िल पर पहुँची।
said-three-sixes = { $who } ने तीन छक्के फेंके: बारी खत्म।
said-numbers-forfeited = { $who } { $numbers } नहीं चल सकते।
score-pieces-home = { $who }: { $count ->
    [one] एक गोटी मंज़िल पर
   *[other] { $count } गोटियाँ मंज़िल पर
}

board-uckers = अकर्स बोर्ड
board-uckers-legend = अकर्स बोर्ड: पीला और हरा (गहरे हरे किनारे) बनाम लाल और नीला (गहरे नीले किनारे); एक जोड़ी की दो या ज़्यादा गोटियाँ एक खाने पर ब्लॉब बनाती हैं (घेरे में)
action-uckers-move = चलें: { $steps }
action-uckers-step = { $piece } को { $die } से
action-uckers-then = , फिर{" "}
action-uckers-total = { $piece } को जोड़ से चलें
action-uckers-challenge = खाना { $square } के ब्लॉब को { $piece } से चुनौती दें
action-uckers-suck-back = { $piece } से { $target } को पीछे खींचें
action-uckers-blow-back = { $piece } से पीछे फूँकें
action-uckers-snake-eyes = स्नेक आइज़ बोलें
action-uckers-stand-up = खड़े होकर खत्म
action-uckers-up-board = हार मानें (अप-बोर्ड)
said-uckers-entered = { $who } ने { $piece } को खाना { $square } पर उतारा।
said-uckers-moved = { $who } ने { $piece } को { $from } से { $to } तक चला।
said-uckers-captured = { $who } ने { $by } से { $piece } काट दी।
said-uckers-blob-captured = { $piece } ने { $count } गोटियों का ब्लॉब काट दिया।
said-uckers-up-board = { $who } ने हार मान ली।
said-uckers-challenge = { $piece } खाना { $square } के ब्लॉब को चुनौती देती है।
score-colour-home = { $colour }: { $count ->
    [one] एक गोटी मंज़िल पर
   *[other] { $count } गोटियाँ मंज़िल पर
}

board-snakes = साँप-सीढ़ी बोर्ड, 10 गुणा 10
board-snakes-text = साँप-सीढ़ी, 10 गुणा 10: खाना 1 नीचे बाएँ, 100 ऊपर बाएँ
snakes-ladder = { $from } से { $to } तक सीढ़ी
snakes-snake = { $from } से { $to } तक साँप
snakes-waiting = अभी बोर्ड पर नहीं:
snakes-ladders-list = सीढ़ियाँ: { $list }
snakes-snakes-list = साँप: { $list }
snakes-counter = { $who } ({ $colour }): { $where }
snakes-not-on-board = अभी बोर्ड पर नहीं
snakes-square = खाना { $square }
snakes-place = , स्थान { $place } पर पूरे हुए
said-snakes-entered = { $who } खाना { $to } पर पहुँचे।
said-snakes-moved = { $who } { $from } से { $to } तक चले।
said-snakes-ladder = { $who } सीढ़ी चढ़कर { $from } से { $to } पर पहुँचे।
said-snakes-snake = { $who } साँप से फिसलकर { $from } से { $to } पर आ गए।
said-snakes-need-six = { $who } को शुरू करने के लिए छक्का चाहिए।
said-snakes-overshoot = { $who } ने ज़्यादा फेंका और { $at } पर ही रहेंगे।
score-square = { $who }: { $where }

board-backgammon = बैकगैमन बोर्ड
pick-from-point = पॉइंट { $point } से चलें
pick-to-point = पॉइंट { $point } पर चलें
pick-selected-point = पॉइंट { $point } की गोटी वापस रखें
pick-from-bar = बार से चलें
pick-bear-off = बाहर निकालें
bg-bar = बार
bg-off = बाहर
bg-on-point = { $who }: पॉइंट { $point } पर { $count }
bg-on-bar = { $who }: बार पर { $count }
bg-borne-off = { $who }: { $count } बाहर निकलीं
bg-count-on-point = पॉइंट { $point } पर { $count }
bg-count-on-bar = बार पर { $count }
bg-count-off = { $count } बाहर निकलीं
bg-cube-centred = डबलिंग क्यूब { $value } पर, बीच में
bg-cube-owned = डबलिंग क्यूब { $value } पर, { $who } के पास
bg-match-to = { $points } अंकों का मैच
bg-money-game = पैसों का खेल
bg-score = { $match } · स्कोर { $first } { $a } – { $b } { $second } · खेल { $game }
bg-pips = पिप: { $first } { $a } · { $second } { $b }
bg-crawford = क्रॉफ़र्ड खेल
bg-direction = { $who } ({ $colour }) 24 से 1 की ओर चलते हैं और दाईं ओर गोटियाँ बाहर निकालते हैं
bg-text-head = { $score }{ $crawford ->
    [yes] ; क्रॉफ़र्ड खेल
   *[no] {""}
}; पॉइंट { $who } की ओर से गिने गए हैं
bg-ids = पोज़िशन ID { $position }, मैच ID { $match }
action-bg-double = डबल करें
action-bg-take = स्वीकार करें
action-bg-drop = छोड़ें (खेल हारें)
action-bg-beaver = बीवर
action-bg-play = चलें: { $moves }
action-bg-play-nothing = चलें (कुछ नहीं)
hint-bg-click = किसी चमकती गोटी या पॉइंट पर क्लिक करें, फिर जहाँ जाना है वहाँ, या चुनें:
download-mat = GNU Backgammon के लिए डाउनलोड करें (.mat)
said-bg-played = { $who } ने चला: { $moves }।
said-bg-move = { $from } से { $to }
said-bg-no-play = { $who } नहीं चल सकते।
said-bg-hit = { $who } ने पॉइंट { $point } पर गोटी मारी।
said-bg-doubled = { $who } ने { $value } पर डबल किया।
said-bg-taken = { $who } ने स्वीकार किया; क्यूब { $value } पर है।
said-bg-beavered = { $who } ने बीवर किया; क्यूब { $value } पर है।
said-bg-dropped = { $who } ने छोड़ दिया।
said-bg-game-won = { $who } ने खेल जीता{ $kind ->
    [gammon] {" "}(गैमन)
    [backgammon] {" "}(बैकगैमन)
   *[single] {""}
}: { $points } अंक।
said-bg-new-game = खेल { $game } शुरू।
