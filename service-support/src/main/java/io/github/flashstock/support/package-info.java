/** Start-up behaviour both services share: where their configuration comes from and how they find each other. */
package io.github.flashstock.support;
