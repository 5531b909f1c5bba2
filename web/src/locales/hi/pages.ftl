# मेज़ के बाहर के पृष्ठ: लॉबी, नई मेज़, प्रोफ़ाइल, लीडरबोर्ड, शर्म का दरबार, निमंत्रण।

## लॉबी

lobby-heading = लॉबी
play-now-title = अभी खेलें
play-now-players = खिलाड़ी
play-now-bots = { $seconds } सेकंड बाद बॉट
play-now-submit = अभी खेलें
play-now-hint = उसी खेल की प्रतीक्षा कर रही सबसे पुरानी मेज़ पर, या नई मेज़ पर एक सीट; भरते ही खेल शुरू हो जाता है।
lobby-open-tables = खुली मेज़ें
lobby-live = लाइव
lobby-filters = फ़िल्टर
filter-any = कोई भी
filter-party = पार्टी
filter-party-only = केवल पार्टी
filter-no-party = पार्टी नहीं
filter-free = खाली सीटों वाली
column-host = मेज़बान
column-seats = सीटें
column-clock = समय
column-table = मेज़
tag-party = पार्टी
lobby-open = खोलें
lobby-watch = देखें
lobby-none = कोई खुली मेज़ मेल नहीं खाती। एक बनाइए!
lobby-create = मेज़ बनाएँ
lobby-finished = खत्म हुए खेल

## नई मेज़

new-title = मेज़ बनाएँ
new-seats = सीटें
new-options = नियम
new-bot-level = बॉट
bot-level-easy = आसान
bot-level-normal = सामान्य
bot-level-strong = मज़बूत
new-private = निजी (निमंत्रण की कड़ी से जुड़ें)
new-party = पार्टी मेज़ ({ $seconds } सेकंड की घड़ी)
new-seed = आपका पासा बीज (वैकल्पिक)
new-submit = बनाएँ

## प्रोफ़ाइल

profile-none = ऐसा कोई खिलाड़ी नहीं है।
profile-summary = { $played } खेल खेले, { $won } जीते।
profile-summary-shame = { $played } खेल खेले, { $won } जीते, शर्म के दरबार में { $shame } बार।
profile-ratings = रेटिंग
column-rated-games = रेटेड खेल
column-rated-wins = रेटेड जीत
profile-provisional = अस्थायी: लीडरबोर्ड पर नहीं
profile-not-rated = अभी रेटिंग नहीं।
profile-rated-hint = केवल खिलाड़ियों के बीच सार्वजनिक खेलों की रेटिंग होती है। जिस सीट पर अधिकतर खिलाड़ी की जगह बॉट खेला, वह वहाँ हार गिनी जाती है, स्थान चाहे जो हो: इसलिए जीता हुआ खेल भी रेटेड हार हो सकता है।
profile-finished = खत्म हुए खेल
profile-won = जीता
profile-place = स्थान { $place }
profile-played = खेला

## लीडरबोर्ड

leaderboard-title = लीडरबोर्ड
leaderboard-hint = खिलाड़ियों के बीच सार्वजनिक खेलों की Glicko-2 रेटिंग (बॉट की रेटिंग नहीं होती); अस्थायी रेटिंग केवल खिलाड़ी की प्रोफ़ाइल पर दिखती है।
column-rank = #
column-player = खिलाड़ी
column-games = खेल
column-wins = जीत
leaderboard-none = अभी कोई पक्की रेटिंग नहीं।

## शर्म का दरबार

shame-title = शर्म का दरबार
shame-hint = बोर्ड का पिछला हिस्सा: अकर्स की हर वह हार जिसमें एक भी गोटी घर नहीं पहुँची (सभी 8 गोटियाँ), और हर हार मान लेना, सबसे नए पहले।
column-when = कब
column-who = कौन
column-what = क्या
column-pieces-home = घर पहुँची गोटियाँ
column-replay = दोबारा देखें
shame-up-board = हार मान ली
shame-dicking = बुरी तरह हारे (8 गोटियाँ)
shame-replay = दोबारा देखें
shame-none = अभी कोई नहीं।

## निमंत्रण

invite-title = निमंत्रण
invite-text = आपको एक निजी मेज़ पर बुलाया गया है: { $game }।

## किस्मत और निष्पक्षता (प्रोफ़ाइल की किस्मत, #/fairness; docs/luck.md)

luck-title = किस्मत
fairness-title = पासों की निष्पक्षता
fairness-hint = हर समाप्त मेज़ का हर पासा, खेल के अनुसार, एक निष्पक्ष पासे से तुलना में। हर मेज़ के ख़त्म होने के एक पल बाद गिना जाता है।
luck-none = अभी कोई समाप्त खेल नहीं गिना गया।
luck-dice = पासे: { $dice } · मेज़ें: { $tables }
luck-faces-caption = फेंके गए अंक, निष्पक्ष पासे के हर अंक के लिए { $expected } की तुलना में
luck-face-count = { $face }: { $count }
luck-faces-test = अंक, निष्पक्ष पासे की तुलना में:
luck-sixes = छक्के: { $rate } (निष्पक्ष पासा: { $fair })।
luck-doubles = जोड़े: { $rate } (निष्पक्ष पासे: { $fair })।
luck-p-fair = निष्पक्ष पासों से मिलने वाले दायरे में (p = { $p })।
luck-p-unusual = असामान्य, पर निष्पक्ष पासे बीस में एक बार या अधिक ऐसा करते हैं (p = { $p })।
luck-p-rare = निष्पक्ष पासों के लिए दुर्लभ (p = { $p }); बहुत से खिलाड़ियों में कोई न कोई यह देखता है।
luck-p-hint = p बताता है कि निष्पक्ष पासे कितनी बार इतना या इससे अधिक भटकेंगे: अकेला छोटा मान कुछ साबित नहीं करता, क्योंकि बहुत से खिलाड़ियों में कोई न कोई उसे देखता ही है।
luck-backgammon = बैकगैमन की किस्मत: { $rolls } चालों में { $total } अंक (प्रति मेज़ { $per_table })।
luck-backgammon-hint = किसी चाल की किस्मत वह इक्विटी है जो उसने सभी 36 चालों के औसत की तुलना में पाई, बॉट के नेटवर्क के अनुसार (जैसे GNU Backgammon मापता है)।
