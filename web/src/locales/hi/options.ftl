# नई मेज़ के फ़ॉर्म पर खेलों के नियम (देखें en/options.ftl)।

option-private-only = { $option } (केवल निजी मेज़ें)
options-private-hint = कुछ घरेलू नियम केवल निजी मेज़ों के लिए हैं।

option-luddo-home_bonus = गोटी घर पहुँचने पर एक और चाल
    .description = गोटी घर पहुँचाने पर फिर से पासा फेंकने को मिलता है (घरेलू नियम; गोटी काटने पर दोबारा फेंकना हमेशा मिलता है)।

option-ludo-enter_on = गोटी निकले
    .description = वे अंक जिनसे गोटी घर से बाहर निकलती है: 6, या बच्चों वाले खेल में 1 या 6।
option-ludo-enter_on-6 = 6 पर
option-ludo-enter_on-1-6 = 1 या 6 पर
option-ludo-play_for_places = स्थानों के लिए खेल जारी
    .description = 3 या अधिक खिलाड़ियों में विजेता के बाद बाकी स्थानों के लिए खेलते रहते हैं; नहीं तो पहले के पूरा करते ही खेल खत्म, और बाकी सब आखिरी स्थान बाँटते हैं।

option-uckers-blow_back = फूँककर हटाना
    .description = WAFU: पाइप में खड़ी गोटी पाइप के मुँह पर खड़े विरोधी को फूँककर हटाने की कोशिश कर सकती है।
option-uckers-mixed_blob_stacking = मिले-जुले ब्लॉब का ढेर
    .description = मिला-जुला ब्लॉब एक ढेर है: केवल सबसे बाद में आई गोटी चल सकती है।
option-uckers-snake_eyes = साँप की आँखें
    .description = खिलाड़ी की पहली चाल पर साँप की आँखें (दो 1) क्या करती हैं।
option-uckers-snake_eyes-off = बंद
option-uckers-snake_eyes-navy = नेवी
option-uckers-snake_eyes-wafu = वाफ़ू
option-uckers-stand_up_finish = खड़े होकर खत्म
    .description = जीत से एक फेंक दूर खिलाड़ी खड़े होकर खत्म करने की घोषणा कर सकता है।
option-uckers-suck_back = खींचकर निकालना
    .description = WAFU: विरोधी के पाइप के मुँह पर खड़ी गोटी उसमें से एक गोटी खींचकर निकालने की कोशिश कर सकती है।
option-uckers-superblobs = सुपर ब्लॉब
    .description = रास्ते के एक खाने पर एक रंग की तीन या अधिक गोटियाँ नहीं चल सकतीं।

option-snakes-board = बोर्ड
    .description = 1943 का क्लासिक बोर्ड।

option-backgammon-beavers = बीवर
    .description = केवल पैसे वाले खेल में: जिसे डबल किया गया वह बीवर कर सकता है (तुरंत रीडबल करे और क्यूब अपने पास रखे)।
option-backgammon-crawford = क्रॉफ़र्ड नियम
    .description = केवल मैच में: किसी खिलाड़ी के पहली बार मैच पॉइंट पर पहुँचने के बाद वाले खेल में डबल नहीं।
option-backgammon-cube = डबलिंग क्यूब
    .description = डबलिंग क्यूब से खेलें या नहीं।
option-backgammon-hints = संकेत (निजी मेज़)
    .description = केवल निजी मेज़ों पर: बैठा खिलाड़ी अपनी बारी पर संकेत माँग सकता है। रेटेड मेज़ पर कभी नहीं।
option-backgammon-jacoby = जैकोबी नियम
    .description = केवल पैसे वाले खेल में: क्यूब न घुमाया गया हो तो गैमन और बैकगैमन एकल गिने जाते हैं।
option-backgammon-match_to = मैच कितने अंक का (0: एक पैसे वाला खेल)
    .description = मैच जीतने के अंक; 0 पर एक अकेला पैसे वाला खेल।
