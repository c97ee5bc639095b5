// The web app's frame cache (src/platform/frame_cache.cpp) against real Dear
// ImGui draw data, without a window: a frame is left undrawn only when its
// draw data and everything else its pixels depend on are those of the last
// frame drawn.
#include <doctest/doctest.h>

#include <string>

#include <imgui.h>

#include "headless_imgui.hpp"
#include "platform/frame_cache.hpp"

namespace {

using attn::platform::FrameCache;
using attn::platform::FrameInputs;

struct Frames {
  ImGuiContext* context = ImGui::CreateContext();
  ImVec2 button_centre;  // where the last frame drew its button
  Frames() {
    attn::test::headless_imgui();
  }
  ~Frames() { ImGui::DestroyContext(context); }
  // One frame: a window with `text`, the mouse at `mouse`.
  const ImDrawData& draw(const std::string& text, ImVec2 mouse = ImVec2(-1, -1)) {
    ImGui::GetIO().MousePos = mouse;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(300, 200));
    ImGui::Begin("lab");
    ImGui::TextUnformatted(text.c_str());
    ImGui::Button("Step");
    button_centre = ImVec2((ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) / 2,
                           (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2);
    ImGui::End();
    ImGui::Render();
    return *ImGui::GetDrawData();
  }
};

}  // namespace

TEST_CASE("frame cache: a frame is skipped only when it is the last frame drawn") {
  Frames frames;
  FrameCache cache;
  FrameInputs inputs;
  inputs.width = 400;
  inputs.height = 300;
  frames.draw("warm-up");  // ImGui settles its window over the first frames
  frames.draw("warm-up");

  CHECK_FALSE(cache.unchanged(frames.draw("猫坐在"), inputs));  // nothing drawn yet
  CHECK(cache.unchanged(frames.draw("猫坐在"), inputs));        // the same picture
  CHECK(cache.unchanged(frames.draw("猫坐在"), inputs));

  SUBCASE("new text is a new picture, once") {
    CHECK_FALSE(cache.unchanged(frames.draw("猫坐在垫子上"), inputs));
    CHECK(cache.unchanged(frames.draw("猫坐在垫子上"), inputs));
    CHECK_FALSE(cache.unchanged(frames.draw("猫坐在"), inputs));  // back again: drawn again
  }
  SUBCASE("the mouse over the button: its hover colour is a new picture") {
    const ImVec2 over = frames.button_centre;
    CHECK_FALSE(cache.unchanged(frames.draw("猫坐在", over), inputs));
    CHECK(cache.unchanged(frames.draw("猫坐在", over), inputs));
    CHECK_FALSE(cache.unchanged(frames.draw("猫坐在"), inputs));  // and away again
  }
  SUBCASE("a heatmap texture drawn anew, a font build, a size or a theme colour: drawn") {
    FrameInputs textures = inputs;
    ++textures.textures_drawn;
    CHECK_FALSE(cache.unchanged(frames.draw("猫坐在"), textures));
    CHECK(cache.unchanged(frames.draw("猫坐在"), textures));
    FrameInputs fonts = textures;
    ++fonts.font_builds;
    CHECK_FALSE(cache.unchanged(frames.draw("猫坐在"), fonts));
    FrameInputs resized = fonts;
    resized.width = 401;
    CHECK_FALSE(cache.unchanged(frames.draw("猫坐在"), resized));
    FrameInputs dark = resized;
    dark.clear[0] = 0.1f;
    CHECK_FALSE(cache.unchanged(frames.draw("猫坐在"), dark));
    CHECK(cache.unchanged(frames.draw("猫坐在"), dark));
  }
  SUBCASE("after forget() (the WebGL context lost) the next frame is drawn") {
    cache.forget();
    CHECK_FALSE(cache.unchanged(frames.draw("猫坐在"), inputs));
    CHECK(cache.unchanged(frames.draw("猫坐在"), inputs));
  }
}
