#include "core/device.h"

namespace streamhal {

Device::Device(int ordinal, std::unique_ptr<BackendDevice> backend)
    : ordinal_(ordinal), backend_(std::move(backend)) {}

Device::~Device() = default;

}  // namespace streamhal
