// Linux evdev force feedback (linux/input.h). The ioctl request codes are function-like macros
// Swift cannot import, so each request used is wrapped in a static inline function here.
#include <linux/input.h>
#include <sys/ioctl.h>

/// 1 when the device can rumble (FF_RUMBLE), 0 when it cannot, -1 when the request failed.
static inline int clinux_input_has_rumble(int fd) {
    unsigned long bits[(FF_MAX + 8 * sizeof(unsigned long)) / (8 * sizeof(unsigned long))] = {0};
    if (ioctl(fd, EVIOCGBIT(EV_FF, sizeof(bits)), bits) < 0) return -1;
    return (int)((bits[FF_RUMBLE / (8 * sizeof(unsigned long))] >> (FF_RUMBLE % (8 * sizeof(unsigned long)))) & 1UL);
}

/// The device's name into `name` (at most `length` bytes); returns the length or -1.
static inline int clinux_input_name(int fd, char *name, int length) {
    return ioctl(fd, EVIOCGNAME(length), name);
}

/// Uploads `effect` (id -1 for a new one; the kernel fills in the id). 0 or -1 with errno.
static inline int clinux_input_upload_effect(int fd, struct ff_effect *effect) {
    return ioctl(fd, EVIOCSFF, effect);
}

/// Removes an uploaded effect.
static inline int clinux_input_remove_effect(int fd, int effect_id) {
    return ioctl(fd, EVIOCRMFF, effect_id);
}
