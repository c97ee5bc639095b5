// The why view's bytes; see why_wire.hpp.
#include "api/why/why_wire.hpp"

namespace attn::api {
namespace {

void write_settings(WireWriter& w, const WhyRunSettings& s) {
  w.u32(uint32_t(s.panel));
  w.u32(uint32_t(s.experiment.task));
  w.u32(uint32_t(s.experiment.distance));
  w.u32(uint32_t(s.experiment.conv_layers));
  w.u32(uint32_t(s.experiment.batch));
  w.f32(s.experiment.learning_rate);
  w.f64(double(s.experiment.seed));  // at most 2^53 (read_why_settings): exact
  w.u32(uint32_t(s.steps));
}

// Values out of range stay so: check_why_run says what is wrong with them.
WhyRunSettings read_settings(WireReader& r) {
  WhyRunSettings s;
  const uint32_t panel = r.u32(), task = r.u32();
  s.panel = panel == 1 ? WhyPanel::Qkv : WhyPanel::Recurrence;
  s.experiment.task = task == 1 ? why::Task::Previous : task == 2 ? why::Task::Lookup : why::Task::Copy;
  s.experiment.distance = int(r.u32());
  s.experiment.conv_layers = int(r.u32());
  s.experiment.batch = int(r.u32());
  s.experiment.learning_rate = r.f32();
  const double seed = r.f64();
  s.experiment.seed = seed >= 0 && seed <= 9007199254740992.0 ? uint64_t(seed) : ~uint64_t(0);
  s.steps = int(r.u32());
  return s;
}

void write_report(WireWriter& w, const WhyReport& report) {
  write_settings(w, report.settings);
  w.u32(uint32_t(report.steps));
  w.u32(report.finished ? 1 : 0);
  w.f64(report.report_ms);
  w.u32(uint32_t(report.models.size()));
  for (std::size_t i = 0; i < report.models.size(); ++i) {
    const why::ModelReport& m = report.models[i];
    w.str(m.key);
    w.f64(m.loss);
    w.f64(m.accuracy);
    w.doubles(m.by_distance);
    w.doubles(m.gradient);
    w.doubles(m.attention);
    w.f64(m.asymmetry);
    w.f64(m.self_strongest);
    const std::vector<why::CurvePoint> none;
    const std::vector<why::CurvePoint>& curve = i < report.curves.size() ? report.curves[i] : none;
    w.u32(uint32_t(curve.size()));
    for (const why::CurvePoint& p : curve) {
      w.u32(uint32_t(p.step));
      w.f64(p.loss);
      w.f64(p.accuracy);
    }
  }
}

WhyReport read_report(WireReader& r) {
  WhyReport report;
  report.settings = read_settings(r);
  report.steps = int(r.u32());
  report.finished = r.u32() != 0;
  report.report_ms = r.f64();
  const uint32_t models = r.u32();
  for (uint32_t i = 0; i < models && r.ok(); ++i) {
    why::ModelReport m;
    m.key = r.str();
    m.loss = r.f64();
    m.accuracy = r.f64();
    m.by_distance = r.doubles();
    m.gradient = r.doubles();
    m.attention = r.doubles();
    m.asymmetry = r.f64();
    m.self_strongest = r.f64();
    std::vector<why::CurvePoint> curve(r.u32());
    if (!r.ok() || curve.size() > std::size_t(WhyLimits::kMaxSteps)) break;
    for (why::CurvePoint& p : curve) {
      p.step = int(r.u32());
      p.loss = r.f64();
      p.accuracy = r.f64();
    }
    report.models.push_back(std::move(m));
    report.curves.push_back(std::move(curve));
  }
  return report;
}

}  // namespace

bool same_run(const WhyRunSettings& a, const WhyRunSettings& b) {
  const why::ExperimentSettings &x = a.experiment, &y = b.experiment;
  return a.panel == b.panel && a.steps == b.steps && x.task == y.task && x.distance == y.distance &&
         x.conv_layers == y.conv_layers &&
         x.batch == y.batch && x.learning_rate == y.learning_rate && x.seed == y.seed;
}

std::vector<uint8_t> write_why_request(const WhyRequest& request) {
  WireWriter w;
  w.u32(uint32_t(request.op));
  w.u32(uint32_t(request.panel));
  w.u32(request.run);
  if (request.op == WhyOp::Reset) write_settings(w, request.settings);
  if (request.op == WhyOp::Advance || request.op == WhyOp::Timing) w.f64(request.number);
  if (request.op == WhyOp::Timing) w.u32(uint32_t(request.n));
  return std::move(w.bytes);
}

bool read_why_request(const std::vector<uint8_t>& bytes, WhyRequest& out) {
  WireReader r(bytes);
  WhyRequest request;
  const uint32_t op = r.u32();
  if (op < uint32_t(WhyOp::Reset) || op > uint32_t(WhyOp::Timing)) return false;
  request.op = WhyOp(op);
  request.panel = int(r.u32());
  request.run = r.u32();
  if (request.op == WhyOp::Reset) request.settings = read_settings(r);
  if (request.op == WhyOp::Advance || request.op == WhyOp::Timing) request.number = r.f64();
  if (request.op == WhyOp::Timing) request.n = int(r.u32());
  if (!r.ok()) return false;
  out = request;
  return true;
}

std::vector<uint8_t> write_why_answer(WhyOp op, const WhyAnswer& answer) {
  WireWriter w;
  w.str(answer.error);
  if (op == WhyOp::Timing) {
    w.u32(uint32_t(answer.timings.size()));
    for (const why::ForwardTiming& t : answer.timings) {
      w.str(t.layer);
      w.u32(uint32_t(t.n));
      w.f64(t.ms);
      w.f64(t.flops);
      w.u32(uint32_t(t.dependent_steps));
    }
    w.str(answer.document);
    return std::move(w.bytes);
  }
  w.u32(uint32_t(answer.panel));
  w.u32(answer.run);
  w.u32(uint32_t(answer.steps));
  w.u32(answer.finished ? 1 : 0);
  if (answer.error.empty() && (op == WhyOp::Reset || op == WhyOp::Report)) {
    write_report(w, answer.report);
    w.str(answer.document);
  }
  return std::move(w.bytes);
}

WhyAnswer read_why_answer(WhyOp op, const std::vector<uint8_t>& bytes) {
  WireReader r(bytes);
  WhyAnswer answer;
  answer.error = r.str();
  if (op == WhyOp::Timing) {
    const uint32_t rows = r.u32();
    for (uint32_t i = 0; i < rows && r.ok(); ++i) {
      why::ForwardTiming t;
      t.layer = r.str();
      t.n = int(r.u32());
      t.ms = r.f64();
      t.flops = r.f64();
      t.dependent_steps = int(r.u32());
      if (r.ok()) answer.timings.push_back(std::move(t));
    }
    answer.document = r.str();
  } else {
    answer.panel = int(r.u32());
    answer.run = r.u32();
    answer.steps = int(int32_t(r.u32()));
    answer.finished = r.u32() != 0;
    if (answer.error.empty() && (op == WhyOp::Reset || op == WhyOp::Report)) {
      answer.report = read_report(r);
      answer.document = r.str();
    }
  }
  if (!r.ok() && answer.error.empty()) answer.error = "why: the module's answer was cut short";
  return answer;
}

}  // namespace attn::api
