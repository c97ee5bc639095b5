// The Quan Tang Shi's cleaning rules and the held-out protocol
// (core/poem/tang_corpus), each rule on lines as the corpus writes them.
#include <string>
#include <vector>

#include "core/poem/tang_corpus.hpp"
#include "helpers.hpp"

using namespace attn::poem;

namespace {

std::string clean(const std::string& poem, TangDrop expected_why = TangDrop::kKept) {
  TangDrop why = TangDrop::kEmpty;
  const std::string out = clean_tang_poem(poem, &why);
  CHECK_MESSAGE(why == expected_why, poem, ": ", tang_drop_name(why));
  return out;
}

}  // namespace

TEST_CASE("tang cleaning: a variant reading in （一作「...」） goes, with what it quotes") {
  CHECK(clean("逻人（一作「叉」）横鸟道，江祖出鱼梁。\n水急客舟（一作「行」）疾，山花拂面香。") ==
        "逻人横鸟道，江祖出鱼梁。\n水急客舟疾，山花拂面香。");
  CHECK(clean("毫（鹤）立蛇形势未休，五天文字鬼神愁。") == "毫立蛇形势未休，五天文字鬼神愁。");
}

TEST_CASE("tang cleaning: a note over several lines goes whole, with its footnote marks, numbers and titles") {
  CHECK(clean("儒门弟子应难识，碧眼胡僧笑点头。\n（〖1〗至大元年〖一三○八〗中元日法三洒扫太原祖昭立石，德渊刻。\n"
              "〖2〗按石本以外，钞本的流传应该更多，《中牟县志》卷七。\n）。") == "儒门弟子应难识，碧眼胡僧笑点头。");
  // Nested notes close at the outer parenthesis.
  CHECK(clean("大国多任士，（蒋云：「（任士）不误」。）明时遗此人。") == "大国多任士，明时遗此人。");
}

TEST_CASE("tang cleaning: footnote marks [一] go, restored characters [X] stay, 〖...〗 goes") {
  CHECK(clean("陵偪，下流不可居[二]斯言可佩服。") == "陵偪，下流不可居斯言可佩服。");
  CHECK(clean("三冬季月景[龙]年，万乘观风出灞川。") == "三冬季月景龙年，万乘观风出灞川。");
  CHECK(clean("[爽]节在重九，物华新雨余。") == "爽节在重九，物华新雨余。");
  CHECK(clean("春风〖1〗吹柳绿，夜雨湿花红。") == "春风吹柳绿，夜雨湿花红。");
}

TEST_CASE("tang cleaning: 《》「」『』 lose their marks and keep their words") {
  CHECK(clean("童子解吟《长恨曲》，胡儿能唱《琵琶篇》。") == "童子解吟长恨曲，胡儿能唱琵琶篇。");
  CHECK(clean("客问「何处去」，答言『江南春』。") == "客问何处去，答言江南春。");
}

TEST_CASE("tang cleaning: a lost or unreadable character drops the poem") {
  CHECK(clean("寺开梁殿阁，坟掩晋衣冠。\n近城多囗囗，栖息此中安。", TangDrop::kLost).empty());
  CHECK(clean("□□□□□，但将词赋奉恩辉。", TangDrop::kLost).empty());
  CHECK(clean("林藏●●多残笋，树过猩猩少落花。", TangDrop::kLost).empty());
  CHECK(clean("迨[□]此跻览，依然是畴昔。", TangDrop::kLost).empty());
  // ○ inside a note is a zero in a year, not a lost character: the note goes, the poem stays.
  CHECK(clean("碧眼胡僧笑点头。\n（〖1〗熙宁十年〖一○七七〗。）") == "碧眼胡僧笑点头。");
}

TEST_CASE("tang cleaning: a character described by its parts drops the poem") {
  CHECK(clean("簪玉步河堤，妖韶援绿{𥫗/戢}。", TangDrop::kComposed).empty());
  CHECK(clean("美酒倾水{炙火=肉}肥牛。", TangDrop::kComposed).empty());
}

TEST_CASE("tang cleaning: notes and brackets that do not close drop the poem") {
  CHECK(clean("春眠不觉晓，（一作「处处」闻啼鸟。", TangDrop::kUnbalanced).empty());
  CHECK(clean("春眠不觉晓）处处闻啼鸟。", TangDrop::kUnbalanced).empty());
  CHECK(clean("三冬季月景[龙年，万乘观风出灞川。", TangDrop::kUnbalanced).empty());
  CHECK(clean("春风〖1吹柳绿。", TangDrop::kUnbalanced).empty());
}

TEST_CASE("tang cleaning: other characters drop the poem; empty lines and lines of marks go") {
  CHECK(clean("其一曰：欺诳得钱君莫羡……", TangDrop::kOtherChars).empty());
  CHECK(clean("破颜看鹊喜，拭泪听猿嗁/。", TangDrop::kOtherChars).empty());
  CHECK(clean("用汉书·龚胜传语。", TangDrop::kOtherChars).empty());
  CHECK(clean("白日依山尽，黄河入海流。 \n\n\u3000。\n欲穷千里目，更上一层楼。") ==
        "白日依山尽，黄河入海流。\n欲穷千里目，更上一层楼。");
  CHECK(clean("（〖1〗只有注。）。", TangDrop::kEmpty).empty());
  // Ideographs beyond the basic block are kept (the corpus has a few thousand).
  CHECK(clean("㶉鶒双飞𬬻，䴔䴖老湿沙。") == "㶉鶒双飞𬬻，䴔䴖老湿沙。");
}

TEST_CASE("tang cleaning: the corpus keeps the first of exact duplicates after cleaning, and counts why") {
  TangCleaning stats;
  const std::vector<std::string> kept = clean_tang_corpus(
      {"床前明月光，疑是地上霜。", "床前明（一作「看」）月光，疑是地上霜。", "近城多囗囗，栖息此中安。", "举头望明月，低头思故乡。"},
      &stats);
  CHECK(kept == std::vector<std::string>{"床前明月光，疑是地上霜。", "举头望明月，低头思故乡。"});
  CHECK(stats.poems == 4);
  CHECK(stats.kept == 2);
  CHECK(stats.dropped[static_cast<int>(TangDrop::kDuplicate)] == 1);
  CHECK(stats.dropped[static_cast<int>(TangDrop::kLost)] == 1);
  CHECK(stats.notes == 0);  // the one with a note was the duplicate
}

TEST_CASE("tang split: clauses, and a poem holding a clause of 4+ characters of a test poem never trains") {
  CHECK(clauses("秦川雄帝宅，函谷壮皇居。\n绮殿千寻起") == std::vector<std::string>{"秦川雄帝宅", "函谷壮皇居", "绮殿千寻起"});
  const std::vector<std::string> test = {"床前明月光，疑是地上霜。\n举头望明月，低头思故乡。"};
  std::vector<std::string> corpus = {
      "床前看月光，疑是地上霜。\n举头望山月，低头思故乡。",  // another edition: shares 疑是地上霜
      "床前明月，江上清风。",                                // clauses of 4 that the test poem does not have
      "举头望明月，我歌月徘徊。",                            // shares 举头望明月
      "春眠不觉晓，处处闻啼鸟。",
      "醉中举头望明月光满，江流。",                          // holds 举头望明月 inside a longer clause
  };
  TangSplit split = split_tang(corpus, test);
  CHECK(split.excluded == std::vector<int>{0, 2, 4});
  CHECK(split.train.size() + split.validation.size() == 2);
  // A clause shorter than min_clause is too common to mean the same poem.
  split = split_tang({"明月，清风。"}, {"明月，白云。"}, 4);
  CHECK(split.excluded.empty());
  split = split_tang({"明月，清风。"}, {"明月，白云。"}, 2);
  CHECK(split.excluded == std::vector<int>{0});
}

TEST_CASE("tang split: validation is a fixed 1 % by the text's hash, the same on every run and build") {
  std::vector<std::string> corpus;
  for (int i = 0; i < 20000; ++i) corpus.push_back("诗" + std::to_string(i) + "。");
  const TangSplit split = split_tang(corpus, {});
  CHECK(split.excluded.empty());
  CHECK(split.validation.size() > 150);
  CHECK(split.validation.size() < 250);
  for (int i : split.validation) CHECK(tang_validation(corpus[static_cast<std::size_t>(i)]));
  for (int i : split.train) CHECK(!tang_validation(corpus[static_cast<std::size_t>(i)]));
  // FNV-1a 64 of "a" is af63dc4c8601ec8c: a fixed rule, not a seeded draw.
  CHECK(tang_validation("a") == (0xaf63dc4c8601ec8cull % 100 == 0));
}
