#include <sys/eventfd.h>
